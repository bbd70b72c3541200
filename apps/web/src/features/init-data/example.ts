import type { z } from 'zod';
import type { initDataSchema } from '@portal/contract';

/** A complete example file, offered for download on the import page. */
export const exampleInitData: z.input<typeof initDataSchema> = {
  organization: {
    name: 'Example Facility Management Co.',
    type: 0,
    prefecture: '13', // JIS X 0401 code: 東京都 / Tokyo
    city: 'Chiyoda-ku',
    address: '1-1 Marunouchi',
    postalCode: '100-0005',
    labOption: false,
    contractEndAt: '2027-03-31',
  },
  buildings: [
    {
      name: 'Marunouchi Tower',
      prefecture: '13',
      timeZone: 'Asia/Tokyo',
      city: 'Chiyoda-ku',
      postalCode: '100-0005',
      latitude: 35.681,
      longitude: 139.767,
      floors: [
        { name: 'B1', index: 0, type: 'parking' },
        { name: '1F Entrance', index: 1, type: 'entrance' },
        { name: '2F Office', index: 2, type: 'office' },
      ],
    },
  ],
  operators: [
    {
      loginId: 'admin@example.com',
      lastName: 'Yamada',
      firstName: 'Hanako',
      password: 'Example-Passw0rd',
      type: 2,
      building: 0,
    },
    {
      loginId: 'operator@example.com',
      lastName: 'Sato',
      firstName: 'Taro',
      password: 'Example-Passw0rd',
      type: 0,
      building: 0,
    },
  ],
};

export const exampleInitDataHref = `data:application/json;charset=utf-8,${encodeURIComponent(
  JSON.stringify(exampleInitData, null, 2),
)}`;
