import { myOps } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { opQuery } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/** The server answers in the operator's language, so the language is part of the key. */
export const announcementsQueryOptions = (language: string) =>
  opQuery(myOps.listAnnouncements, queryKeys.my.part('me', 'announcements', language));

export const useAnnouncements = (language: string) => useQuery(announcementsQueryOptions(language));
