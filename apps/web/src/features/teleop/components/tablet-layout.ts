/**
 * The media queries of the operator screens' tablet layouts, in step with teleop.module.css (which
 * holds the sizes; these say which parts a layout places elsewhere).
 */

/** Side by side from Mantine md (62em = 992 px); narrower is stacked (a tablet in portrait). */
export const SIDE_BY_SIDE_QUERY = '(min-width: 62em)';

/** From Mantine lg (75em = 1200 px) the video column is wide enough for the alerts over the video. */
export const ROOMY_QUERY = '(min-width: 75em)';

/** A tablet in landscape: the basic controller puts its drive pad beside the video. */
export const TABLET_LANDSCAPE_QUERY =
  '(orientation: landscape) and (max-width: 74.99em), (orientation: landscape) and (pointer: coarse)';
