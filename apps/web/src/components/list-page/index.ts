export { DataTable, type Column } from './data-table';
export { ListSearch } from './list-search';
export { ListStates } from './list-states';
