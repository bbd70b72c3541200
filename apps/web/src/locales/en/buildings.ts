/** English texts that shared components read (building filter, common buttons); spread into ../en.ts. The building and floor screens' own texts are the lazily loaded section ./building-screens.ts. */
export const buildingsEn = {
  buildingFilter: {
    label: 'Building',
    all: 'All buildings',
    choose: 'Choose a building',
  },
  buildingCommon: {
    edit: 'Edit',
    delete: 'Delete',
    cancel: 'Cancel',
    save: 'Save',
    add: 'Add',
    loading: 'Loading…',
  },
};
