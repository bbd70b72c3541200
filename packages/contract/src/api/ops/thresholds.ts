import { z } from 'zod';
import {
  thresholdLogSchema,
  thresholdRuleInputSchema,
  thresholdRuleSchema,
  updateThresholdRuleBodySchema,
} from '../../thresholds.ts';
import { defineOperations, idParams, listQuery, noContent } from '../operation.ts';

/**
 * Threshold rules and their log (docs/api-thresholds.md). Reading: every operator of the
 * organization (system administrators every organization). Writing: organization administrators
 * their organization's rules, system administrators any (spec §1, §6: administrators manage
 * threshold rules); others 403. Another organization's rule is 404.
 */
export const thresholdOps = defineOperations('thresholds', {
  /** Rules in scope; filter on name (search), level, status, organizationId; default order name. */
  listThresholdRules: {
    method: 'GET',
    path: '/threshold-rules',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: z.array(thresholdRuleSchema) },
  },
  createThresholdRule: {
    method: 'POST',
    path: '/threshold-rules',
    access: 'admin',
    body: thresholdRuleInputSchema,
    responses: { 201: thresholdRuleSchema },
  },
  getThresholdRule: {
    method: 'GET',
    path: '/threshold-rules/:id',
    access: 'user',
    params: idParams,
    responses: { 200: thresholdRuleSchema },
  },
  updateThresholdRule: {
    method: 'PUT',
    path: '/threshold-rules/:id',
    access: 'admin',
    params: idParams,
    body: updateThresholdRuleBodySchema,
    responses: { 200: thresholdRuleSchema },
  },
  /**
   * Refused with 409 IN_USE while check items use the rule (one detail per item: `checkItems.{id}`,
   * its name). The rule's log lines stay, naming it by its name.
   */
  deleteThresholdRule: {
    method: 'DELETE',
    path: '/threshold-rules/:id',
    access: 'admin',
    params: idParams,
    responses: noContent,
  },
  /**
   * Breaches, newest first (general operators: their building's and those of no building); filter on
   * ruleId, level, checkItemId, buildingId, at (from/to).
   */
  listThresholdLogs: {
    method: 'GET',
    path: '/threshold-logs',
    access: 'user',
    query: listQuery,
    list: true,
    responses: { 200: z.array(thresholdLogSchema) },
  },
});
