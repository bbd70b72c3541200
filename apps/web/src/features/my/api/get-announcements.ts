import { announcementSchema } from '@portal/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

export const getAnnouncements = () => api.get('/my/announcements', z.array(announcementSchema));

/** The server answers in the operator's language, so the language is part of the key. */
export const announcementsQueryOptions = (language: string) =>
  queryOptions({ queryKey: ['my', 'announcements', language], queryFn: getAnnouncements });

export const useAnnouncements = (language: string) => useQuery(announcementsQueryOptions(language));
