import { act, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  listParam,
  readListParams,
  urlParam,
  useListParams,
  writeListParams,
  type ListParams,
} from '@/lib/list-params';

const schema = z.object({
  page: listParam.page(),
  sort: listParam.sort(['name', 'updatedAt'] as const),
  q: listParam.text(),
  building: listParam.id(),
  model: listParam.oneOf([100, 200] as const),
  kind: listParam.oneOf(['a', 'b'] as const),
  type: listParam.code(z.union([z.literal(0), z.literal(9)])),
  from: listParam.day(),
  scope: urlParam<number | 'org' | null>(
    (raw) => (raw === 'org' ? 'org' : raw ? Number(raw) : null),
    (v) => (v === null ? undefined : String(v)),
  ),
});
type State = z.output<typeof schema>;

describe('list state in the URL (zod codecs)', () => {
  it('reads defaults from an empty or invalid URL', () => {
    const empty = readListParams(schema, new URLSearchParams(''));
    expect(empty).toEqual({
      page: 1,
      sort: null,
      q: '',
      building: null,
      model: null,
      kind: null,
      type: null,
      from: '',
      scope: null,
    });
    const bad = readListParams(
      schema,
      new URLSearchParams('page=0&sort=-nope&building=abc&model=300&kind=c&type=5&from=2025-1-1'),
    );
    expect(bad).toEqual(empty);
  });

  it('round-trips a state (defaults left out, schema order)', () => {
    const search = new URLSearchParams(
      'scope=org&from=2025-01-31&type=9&kind=b&model=200&building=12&q=%20yamada%20&sort=-updatedAt&page=3',
    );
    const state = readListParams(schema, search);
    expect(state).toEqual({
      page: 3,
      sort: { column: 'updatedAt', desc: true },
      q: 'yamada',
      building: 12,
      model: 200,
      kind: 'b',
      type: 9,
      from: '2025-01-31',
      scope: 'org',
    });
    expect(writeListParams(schema, state).toString()).toBe(
      'page=3&sort=-updatedAt&q=yamada&building=12&model=200&kind=b&type=9&from=2025-01-31&scope=org',
    );
    expect(writeListParams(schema, { ...state, page: 1, q: '', scope: null }).toString()).toBe(
      'sort=-updatedAt&building=12&model=200&kind=b&type=9&from=2025-01-31',
    );
    expect(readListParams(schema, writeListParams(schema, state))).toEqual(state);
  });

  it('useListParams: a change goes to page 1 and keeps search parameters that are not the list’s', () => {
    let list: ListParams<State> | undefined;
    function Probe() {
      list = useListParams(schema);
      return null;
    }
    const router = createMemoryRouter([{ path: '/x', element: <Probe /> }], {
      initialEntries: ['/x?page=4&tab=2&q=old'],
    });
    render(<RouterProvider router={router} />);
    const location = () => router.state.location.search;
    expect(list?.params.page).toBe(4);

    act(() => list?.setParams({ q: 'new' }));
    expect(location()).toBe('?q=new&tab=2');
    act(() => list?.setParams({ page: 2 }));
    expect(location()).toBe('?page=2&q=new&tab=2');
    act(() => list?.setParams({ sort: { column: 'name', desc: false } }));
    expect(location()).toBe('?sort=name&q=new&tab=2');
    expect(list?.params).toMatchObject({ page: 1, sort: { column: 'name', desc: false }, q: 'new' });
  });

  it('useListParams: a page under another key (a second list on the screen) also goes back to 1', () => {
    const second = z.object({ activityPage: listParam.page(), activityKind: listParam.oneOf(['a', 'b'] as const) });
    let list: ListParams<z.output<typeof second>> | undefined;
    function Probe() {
      list = useListParams(second);
      return null;
    }
    const router = createMemoryRouter([{ path: '/x', element: <Probe /> }], {
      initialEntries: ['/x?activityPage=3&page=5'],
    });
    render(<RouterProvider router={router} />);
    act(() => list?.setParams({ activityKind: 'b' }));
    // Its own page starts again; the other list's `page` is not its to touch.
    expect(router.state.location.search).toBe('?activityKind=b&page=5');
    act(() => list?.setParams({ activityPage: 2 }));
    expect(router.state.location.search).toBe('?activityPage=2&activityKind=b&page=5');
  });
});
