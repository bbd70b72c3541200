import { Navigate, type RouteObject } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { laterRoutes, paths } from '@/config/paths';
import { loadSection, type SectionName } from '@/lib/i18n';
import { RootLayout } from './routes/root';
import { webhookRoutes } from './routes/system/webhook-routes';

/**
 * A lazy route whose texts live in locale sections: the screen and its texts download together (once:
 * a route loader would run again with each change of the search parameters).
 */
const withTexts =
  <M,>(section: SectionName | SectionName[], load: () => Promise<M>) =>
  async (): Promise<M> => {
    const [mod] = await Promise.all([load(), ...[section].flat().map((s) => loadSection(s))]);
    return mod;
  };

/** The command library's screens: their texts and the flows section's (the definition's messages). */
const commandTexts =
  <M,>(load: () => Promise<M>) =>
  async (): Promise<M> => {
    const [mod] = await Promise.all([load(), loadSection('commands'), loadSection('flows')]);
    return mod;
  };

/** Every route of spec section 2; screens load lazily so the login route stays small. */
export function createRoutes(): RouteObject[] {
  const redirect = (path: string, to: string): RouteObject => ({ path, element: <Navigate to={to} replace /> });
  return [
    {
      id: 'root',
      element: <RootLayout />,
      HydrateFallback: PageLoader,
      children: [
        redirect(paths.root.path, paths.robot.control.getHref()),
        {
          path: paths.auth.root.path,
          lazy: () => import('./routes/auth/auth-layout'),
          children: [
            { index: true, element: <Navigate to={paths.auth.login.getHref()} replace /> },
            { path: paths.auth.login.path, lazy: () => import('./routes/auth/login') },
            { path: paths.auth.register.path, lazy: () => import('./routes/auth/register') },
            { path: paths.auth.error.path, lazy: () => import('./routes/auth/error') },
            { path: paths.auth.initData.path, lazy: withTexts('account', () => import('./routes/auth/init-data')) },
          ],
        },
        { path: paths.term.agreement.path, lazy: () => import('./routes/term-agreement') },
        {
          id: 'signed-in',
          lazy: () => import('./routes/app-layout'),
          children: [
            // Each robot's card names its running flow's step (flows section).
            {
              path: paths.robot.control.path,
              lazy: withTexts(['robots', 'flows'], () => import('./routes/robot/control')),
            },
            { path: paths.robot.list.path, lazy: withTexts('robots', () => import('./routes/robot/list')) },
            { path: paths.robot.create.path, lazy: withTexts('robots', () => import('./routes/robot/create')) },
            {
              path: paths.robot.settingHistory.path,
              lazy: withTexts('robots', () => import('./routes/robot/setting-history')),
            },
            // The flow section's run statuses and step kinds are the flows section's.
            {
              path: paths.robot.detail.path,
              lazy: withTexts(['robots', 'flows'], () => import('./routes/robot/detail')),
            },
            { path: paths.dashboard.path, lazy: withTexts('robots', () => import('./routes/dashboard')) },
            redirect(paths.my.root.path, paths.my.profile.getHref()),
            { path: paths.my.profile.path, lazy: withTexts('account', () => import('./routes/my/profile')) },
            { path: paths.my.chpwd.path, lazy: withTexts('account', () => import('./routes/my/chpwd')) },
            { path: paths.my.devices.path, lazy: withTexts('account', () => import('./routes/my/devices')) },
            redirect('/my/messages', paths.my.messages.getHref(1)),
            { path: paths.my.messages.path, lazy: withTexts('account', () => import('./routes/my/messages')) },
            redirect('/my/audit-logs', paths.my.auditLogs.getHref(1)),
            { path: paths.my.auditLogs.path, lazy: withTexts('account', () => import('./routes/my/audit-logs')) },
            {
              path: paths.my.announcements.path,
              lazy: withTexts('account', () => import('./routes/my/announcements')),
            },
            { path: paths.my.versions.path, lazy: withTexts('account', () => import('./routes/my/versions')) },
            { path: paths.my.contract.path, lazy: withTexts('account', () => import('./routes/my/contract')) },
            redirect(paths.schedule.root.path, paths.schedule.calWeek.getHref()),
            // A log line's run and reasons use the flows section's run texts (and the robots section's codes).
            {
              path: paths.schedule.calendar.path,
              lazy: withTexts(['schedules', 'flows'], () => import('./routes/schedule/calendar')),
            },
            {
              path: paths.schedule.list.path,
              lazy: withTexts(['schedules', 'flows'], () => import('./routes/schedule/list')),
            },
            {
              path: paths.schedule.create.path,
              lazy: withTexts(['schedules', 'flows'], () => import('./routes/schedule/create')),
            },
            {
              path: paths.schedule.detail.path,
              lazy: withTexts(['schedules', 'flows'], () => import('./routes/schedule/detail')),
            },
            {
              path: paths.schedule.log.path,
              lazy: withTexts(['schedules', 'flows', 'robots'], () => import('./routes/schedule/log')),
            },
            // A report's steps and errors are named with the flows and robots sections' words.
            {
              path: paths.report.list.path,
              lazy: withTexts(['reports', 'flows'], () => import('./routes/report/list')),
            },
            {
              path: paths.report.exportHistory.path,
              lazy: withTexts('reports', () => import('./routes/report/export-history')),
            },
            {
              path: paths.report.templateList.path,
              lazy: withTexts('reports', () => import('./routes/report/template-list')),
            },
            {
              path: paths.report.templateCreate.path,
              lazy: withTexts('reports', () => import('./routes/report/template-create')),
            },
            {
              path: paths.report.detail.path,
              lazy: withTexts(['reports', 'flows', 'robots'], () => import('./routes/report/detail')),
            },
            {
              path: paths.system.deliveries.path,
              lazy: withTexts('account', () => import('./routes/system/deliveries')),
            },
            {
              path: paths.system.termTexts.path,
              lazy: withTexts('account', () => import('./routes/system/terms')),
            },
            ...webhookRoutes,
            { path: paths.organization.list.path, lazy: () => import('./routes/organization/list') },
            { path: paths.organization.create.path, lazy: () => import('./routes/organization/create') },
            { path: paths.organization.detail.path, lazy: () => import('./routes/organization/detail') },
            {
              path: paths.organization.notifTargetCreate.path,
              lazy: () => import('./routes/organization/notif-target-create'),
            },
            { path: paths.organization.notifTarget.path, lazy: () => import('./routes/organization/notif-target') },
            { path: paths.operator.list.path, lazy: () => import('./routes/operator/list') },
            { path: paths.operator.create.path, lazy: withTexts('account', () => import('./routes/operator/create')) },
            { path: paths.operator.detail.path, lazy: withTexts('account', () => import('./routes/operator/detail')) },
            { path: paths.auditLog.list.path, lazy: () => import('./routes/audit-log/list') },
            { path: paths.building.list.path, lazy: withTexts('buildings', () => import('./routes/building/list')) },
            {
              path: paths.building.create.path,
              lazy: withTexts('buildings', () => import('./routes/building/create')),
            },
            {
              path: paths.building.detail.path,
              lazy: withTexts('buildings', () => import('./routes/building/detail')),
            },
            {
              path: paths.building.floorCreate.path,
              lazy: withTexts('buildings', () => import('./routes/building/floor-create')),
            },
            { path: paths.building.floor.path, lazy: withTexts('buildings', () => import('./routes/building/floor')) },
            {
              path: paths.building.robotGroupCreate.path,
              lazy: withTexts('buildings', () => import('./routes/building/robot-group-create')),
            },
            {
              path: paths.building.robotGroup.path,
              lazy: withTexts('buildings', () => import('./routes/building/robot-group')),
            },
            {
              path: paths.building.flowGroupCreate.path,
              lazy: withTexts('buildings', () => import('./routes/building/flow-group-create')),
            },
            {
              path: paths.building.flowGroup.path,
              lazy: withTexts('buildings', () => import('./routes/building/flow-group')),
            },
            { path: paths.poseDef.list.path, lazy: withTexts('poses', () => import('./routes/pose-def/list')) },
            { path: paths.poseDef.create.path, lazy: withTexts('poses', () => import('./routes/pose-def/create')) },
            { path: paths.poseDef.detail.path, lazy: withTexts('poses', () => import('./routes/pose-def/detail')) },
            {
              path: paths.poseNetwork.list.path,
              lazy: withTexts('poses', () => import('./routes/pose-network/list')),
            },
            {
              path: paths.poseNetwork.create.path,
              lazy: withTexts('poses', () => import('./routes/pose-network/create')),
            },
            {
              path: paths.poseNetwork.detail.path,
              lazy: withTexts('poses', () => import('./routes/pose-network/detail')),
            },
            {
              path: paths.workplan.settings.path,
              lazy: withTexts('workPlans', () => import('./routes/workplan/settings')),
            },
            {
              path: paths.workplan.create.path,
              lazy: withTexts(['workPlans', 'flows'], () => import('./routes/workplan/create')),
            },
            {
              path: paths.workplan.createTemplate.path,
              lazy: withTexts(['workPlans', 'flows'], () => import('./routes/workplan/create-template')),
            },
            {
              path: paths.workplan.detail.path,
              lazy: withTexts(['workPlans', 'flows'], () => import('./routes/workplan/detail')),
            },
            {
              path: paths.commandMapping.list.path,
              lazy: withTexts(['commandMappings', 'teleop'], () => import('./routes/command-mapping/list')),
            },
            {
              path: paths.commandMapping.create.path,
              lazy: withTexts(['commandMappings', 'teleop'], () => import('./routes/command-mapping/create')),
            },
            {
              path: paths.commandMapping.detail.path,
              lazy: withTexts(['commandMappings', 'teleop'], () => import('./routes/command-mapping/detail')),
            },
            {
              path: paths.checkItem.list.path,
              lazy: withTexts('checkItems', () => import('./routes/check-item/list')),
            },
            {
              path: paths.checkItem.create.path,
              lazy: withTexts('checkItems', () => import('./routes/check-item/create')),
            },
            {
              path: paths.checkItem.detail.path,
              lazy: withTexts('checkItems', () => import('./routes/check-item/detail')),
            },
            { path: paths.editor.pose.path, lazy: withTexts('poses', () => import('./routes/editor-pose')) },
            { path: paths.editor.floor.path, lazy: withTexts('mapEditor', () => import('./routes/editor/floor')) },
            {
              path: paths.editor.partial.path,
              lazy: withTexts('mapEditor', () => import('./routes/editor/floor-partial')),
            },
            { path: paths.editor.v1_5.path, lazy: withTexts('mapEditor', () => import('./routes/editor/floor-v1-5')) },
            { path: paths.editor.v2.path, lazy: withTexts('mapEditor', () => import('./routes/editor/floor-v2')) },
            { path: paths.waypoint.list.path, lazy: withTexts('mapEditor', () => import('./routes/waypoint/list')) },
            {
              path: paths.waypoint.create.path,
              lazy: withTexts('mapEditor', () => import('./routes/waypoint/create')),
            },
            {
              path: paths.waypoint.detail.path,
              lazy: withTexts('mapEditor', () => import('./routes/waypoint/detail')),
            },
            {
              path: paths.threshold.list.path,
              lazy: withTexts('thresholds', () => import('./routes/threshold/list')),
            },
            {
              path: paths.threshold.create.path,
              lazy: withTexts('thresholds', () => import('./routes/threshold/create')),
            },
            {
              path: paths.threshold.log.path,
              lazy: withTexts('thresholds', () => import('./routes/threshold/log')),
            },
            {
              path: paths.threshold.detail.path,
              lazy: withTexts('thresholds', () => import('./routes/threshold/detail')),
            },
            // Before /command/:id. The definition's messages are the flows section's.
            { path: paths.command.list.path, lazy: commandTexts(() => import('./routes/command/list')) },
            { path: paths.command.readOnly.path, lazy: commandTexts(() => import('./routes/command/read-only')) },
            { path: paths.command.create.path, lazy: commandTexts(() => import('./routes/command/create')) },
            { path: paths.command.usage.path, lazy: commandTexts(() => import('./routes/command/usage')) },
            { path: paths.command.detail.path, lazy: commandTexts(() => import('./routes/command/detail')) },
            // Before /flow/:id.
            { path: paths.flow.settings.path, lazy: withTexts('flows', () => import('./routes/flow/settings')) },
            { path: paths.flow.create.path, lazy: withTexts('flows', () => import('./routes/flow/create')) },
            // A run's progress names the robot's error codes and elevator and door phases (robots section).
            {
              path: paths.flow.detail.path,
              lazy: withTexts(['flows', 'robots'], () => import('./routes/flow/detail')),
            },
            {
              path: paths.app.basic.path,
              lazy: withTexts(['teleop', 'commandMappings'], () => import('./routes/app/basic')),
            },
            {
              path: paths.app.teleOpe.path,
              lazy: withTexts(['teleop', 'commandMappings'], () => import('./routes/app/tele-ope')),
            },
            { path: paths.console.path, lazy: withTexts('console', () => import('./routes/console')) },
            ...laterRoutes.map((r): RouteObject => ({
              path: r.path,
              handle: { section: r.section },
              lazy: () => import('./routes/coming-soon'),
            })),
          ],
        },
        { path: '*', lazy: () => import('./routes/not-found') },
      ],
    },
  ];
}
