export { DataTable, type Column, type DataTableProps } from './data-table';
export { ListPager, type ListPaging } from './list-pager';
export { ListSearch } from './list-search';
export { EmptyState, ListStates, listItems, type ListData } from './list-states';
export { ListTable, type ListTableProps } from './list-table';
