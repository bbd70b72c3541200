import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * The database, as Kysely sees it. One schema for SQLite and PostgreSQL: timestamps are UTC
 * ISO-8601 text, booleans are integers 0/1, JSON is text. Every tenant-owned row carries
 * `organization_id` (and `building_id` where it has one).
 */
export interface Database {
  organizations: OrganizationTable;
  buildings: BuildingTable;
  building_ip_rules: BuildingIpRuleTable;
  robot_groups: GroupTable;
  robots: RobotTable;
  robot_setting_history: RobotSettingHistoryTable;
  pending_robots: PendingRobotTable;
  login_lockouts: LoginLockoutTable;
  email_changes: EmailChangeTable;
  flow_groups: GroupTable;
  floors: FloorTable;
  operators: OperatorTable;
  sessions: SessionTable;
  contracts: ContractTable;
  building_options: BuildingOptionTable;
  term_documents: TermDocumentTable;
  term_agreements: TermAgreementTable;
  audit_logs: AuditLogTable;
  messages: MessageTable;
  announcements: AnnouncementTable;
  outbox: OutboxTable;
  registration_requests: RegistrationRequestTable;
  notification_targets: NotificationTargetTable;
  speech_texts: SpeechTextTable;
  building_links: BuildingLinkTable;
  files: FileTable;
}

type Bool = number;

export interface OrganizationTable {
  id: Generated<number>;
  name: string;
  type: number;
  level: number;
  prefecture: string | null;
  city: string | null;
  address: string | null;
  postal_code: string | null;
  status: number;
  lab_option: Bool;
  created_at: string;
  updated_at: string;
}

export interface BuildingTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  prefecture: string | null;
  city: string | null;
  address: string | null;
  postal_code: string | null;
  latitude: number | null;
  longitude: number | null;
  status: number;
  ip_restriction_enabled: Bool;
  /** IANA zone (migration 014; default Asia/Tokyo). */
  time_zone: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface BuildingIpRuleTable {
  id: Generated<number>;
  organization_id: number;
  building_id: number;
  address: string;
  description: string;
  created_at: string;
}

/** Robot groups and flow groups: named, ordered, per building. */
export interface GroupTable {
  id: Generated<number>;
  organization_id: number;
  building_id: number;
  name: string;
  sort_order: number;
  created_at: string;
  updated_at: string;
}

export interface FloorTable {
  id: Generated<number>;
  organization_id: number;
  building_id: number;
  name: string;
  type: string;
  index: number;
  img: string | null;
  ugomap: string | null;
  img_width: number | null;
  img_height: number | null;
  resolution: number | null;
  origin_x: number | null;
  origin_y: number | null;
  created_at: string;
  updated_at: string;
}

export interface OperatorTable {
  id: Generated<number>;
  organization_id: number;
  building_id: number | null;
  login_id: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  type: number;
  flow_edit_restricted: Bool;
  language: string | null;
  /** The UI language of the operator's latest signed-in request (migration 015). */
  last_language: string | null;
  auth_mode: string;
  phone: string;
  status: number;
  failed_login_count: number;
  locked_until: string | null;
  must_change_password: Bool;
  password_changed_at: string | null;
  login_count: number;
  last_login_at: string | null;
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface SessionTable {
  id: Generated<number>;
  operator_id: number;
  token_hash: string;
  /** 'pending' until the verification code is confirmed, then 'active'. */
  state: string;
  device: string;
  ip: string;
  auth_code_hash: string | null;
  auth_code_expires_at: string | null;
  auth_code_attempts: number;
  created_at: string;
  last_used_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface ContractTable {
  id: Generated<number>;
  organization_id: number;
  contract_end_at: string | null;
  payment_completed: Bool;
  maintenance_company_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface BuildingOptionTable {
  building_id: number;
  organization_id: number;
  is_archive: Bool;
  is_mini_asilla: Bool;
  is_lilz: Bool;
  is_hakaru_ai: Bool;
  is_kanriroid: Bool;
  is_auto_guide: Bool;
}

export interface TermDocumentTable {
  id: Generated<number>;
  kind: string;
  version: string;
  title_ja: string;
  title_en: string;
  body_ja: string;
  body_en: string;
  published_at: string;
  /** The version of the text (an in-place correction changes it; migration 015). */
  updated_at: string | null;
  updated_by: number | null;
}

export interface TermAgreementTable {
  id: Generated<number>;
  operator_id: number;
  document_id: number;
  agreed_at: string;
  ip: string | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: string;
  operator_id: number | null;
  organization_id: number | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  /** The target's name when the entry was written (migration 015). */
  target_name: string | null;
  ip: string | null;
  detail: string | null;
}

export interface MessageTable {
  id: Generated<number>;
  organization_id: number;
  operator_id: number;
  level: number;
  title: string;
  body: string;
  read_at: string | null;
  created_at: string;
}

export interface AnnouncementTable {
  id: Generated<number>;
  /** null: shown to every organization. */
  organization_id: number | null;
  level: number;
  title_ja: string;
  title_en: string;
  body_ja: string;
  body_en: string;
  published_at: string;
  created_at: string;
}

export interface OutboxTable {
  id: Generated<number>;
  organization_id: number | null;
  channel: string;
  recipient: string;
  subject: string;
  body: string;
  purpose: string;
  status: string;
  error: string | null;
  created_at: string;
  sent_at: string | null;
}

export interface RegistrationRequestTable {
  id: Generated<number>;
  email: string;
  first_name: string;
  last_name: string;
  organization_name: string;
  message: string;
  ip: string | null;
  created_at: string;
}

export type OperatorRow = Selectable<OperatorTable>;
export type NewOperator = Insertable<OperatorTable>;
export type OperatorUpdate = Updateable<OperatorTable>;
export type SessionRow = Selectable<SessionTable>;
export type BuildingRow = Selectable<BuildingTable>;
export type OrganizationRow = Selectable<OrganizationTable>;
export type FloorRow = Selectable<FloorTable>;

export interface NotificationTargetTable {
  id: Generated<number>;
  organization_id: number;
  building_id: number | null;
  type: number;
  level: number;
  room: string;
  address: string;
  address_sealed: Bool;
  bot_login_id: string;
  bot_password: string | null;
  space_id: string;
  /** `ja` or `en`: the language of its messages (migration 035). */
  language: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface SpeechTextTable {
  id: Generated<number>;
  organization_id: number;
  building_id: number;
  language: string;
  text: string;
  created_at: string;
  updated_at: string;
}

export interface BuildingLinkTable {
  building_id: number;
  organization_id: number;
  t_spider_url: string;
  hakaru_ai_login_id: string;
  hakaru_ai_password: string | null;
  lilz_token: string | null;
  kanriroid_token: string | null;
  updated_at: string;
}

export interface FileTable {
  key: string;
  organization_id: number;
  building_id: number | null;
  content_type: string;
  size: number;
  sha256: string;
  purpose: string;
  created_at: string;
}

/** A registered robot (issue 4). `status`: 0 unavailable, 1 available, 2 maintenance, 9 repair shop. */
export interface RobotTable {
  id: Generated<number>;
  organization_id: number;
  building_id: number;
  floor_id: number;
  group_id: number | null;
  serial_no: string;
  name: string;
  model: string;
  version: string;
  hardware_revision: string;
  status: number;
  long_term_rec_auto_start: number;
  video_mode: string;
  notes: string;
  manufacturer: string;
  mqtt_username: string;
  mqtt_password_hash: string;
  last_communication_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}
export type RobotRow = Selectable<RobotTable>;

export interface RobotSettingHistoryTable {
  id: Generated<number>;
  robot_id: number;
  organization_id: number;
  field: string;
  old_value: string | null;
  new_value: string | null;
  operator_id: number | null;
  changed_at: string;
}

/** An operator's own email change, waiting for the code sent to the new address. */
export interface EmailChangeTable {
  operator_id: number;
  new_email: string;
  code_hash: string;
  expires_at: string;
  attempts: Generated<number>;
  created_at: string;
}

/** Failures and locks of login IDs that match no account (keyed by a hash of the ID). */
export interface LoginLockoutTable {
  key: string;
  failures: number;
  locked_until: string | null;
  updated_at: string;
}

export interface PendingRobotTable {
  id: Generated<number>;
  username: string;
  client_id: string;
  ip: string;
  attempts: number;
  first_seen_at: string;
  last_seen_at: string;
}

/** Pose definitions and pose networks (docs/poses.md); merged into `Database` above. */
export interface Database {
  pose_defs: PoseDefTable;
  pose_networks: PoseNetworkTable;
  pose_network_nodes: PoseNetworkNodeTable;
}

/** What pose definitions and pose networks both have: placement, name and arm. */
export interface PoseTableBase {
  id: Generated<number>;
  organization_id: number;
  building_id: number | null;
  name: string;
  arm_model: number;
  arm_type: number;
  created_at: string;
  updated_at: string;
}

export interface PoseDefTable extends PoseTableBase {
  /** JSON number[][] (degrees, one array per arm). */
  arms: string;
  periscope_mm: number | null;
}

export interface PoseNetworkTable extends PoseTableBase {
  /** JSON { from, to, bidirectional }[]. */
  edges: string;
}

export interface PoseNetworkNodeTable {
  network_id: number;
  pose_def_id: number;
  position: number;
}

/** Floor maps (issue 5): one row per saved revision of a floor's map document (JSON text). */
export interface FloorMapRevisionTable {
  id: Generated<number>;
  organization_id: number;
  building_id: number;
  floor_id: number;
  revision: number;
  document: string;
  waypoint_count: number;
  edge_count: number;
  note: string;
  saved_by: number | null;
  saved_at: string;
}

// Declaration merging: the maps module's table joins the one Database interface above.
export interface Database {
  floor_map_revisions: FloorMapRevisionTable;
}

/** Robot features of teleoperation (migration 006): photos robots took and thermal camera presets. */
export interface Database {
  robot_photos: RobotPhotoTable;
  robot_thermal_presets: RobotThermalPresetTable;
}

export interface RobotPhotoTable {
  id: Generated<number>;
  robot_id: number;
  organization_id: number;
  /** Where the robot was when it took the photo. */
  building_id: number;
  camera: string;
  /** The stored file (`files.key`). */
  file_key: string;
  width: number;
  height: number;
  taken_at: string;
  /** Who sent the takePhoto action; null when unknown (another server, a restart, the robot's own). */
  operator_id: number | null;
  action_id: string;
}

export interface RobotThermalPresetTable {
  id: Generated<number>;
  robot_id: number;
  name: string;
  color_map: string;
  range_min: number;
  range_max: number;
  created_at: string;
  updated_at: string;
}

/** Live rows per organization, kept by triggers (migration 025): the unfiltered operator list's total. */
export interface Database {
  live_counts: LiveCountTable;
  building_counts: BuildingCountTable;
}

/** Buildings per organization and status, kept by the triggers of migration 038. */
export interface BuildingCountTable {
  organization_id: number;
  status: number;
  n: number;
}

export interface LiveCountTable {
  /** The counted table (`operators`). */
  table_name: string;
  organization_id: number;
  n: number;
}

/** Threshold rules and their log (migration 028; docs/api-thresholds.md). */
export interface Database {
  threshold_rules: ThresholdRuleTable;
  threshold_logs: ThresholdLogTable;
}

export interface ThresholdRuleTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  description: string;
  /** 0 information, 5 warning, 9 emergency. */
  level: number;
  /** 1 enabled, 0 disabled. */
  status: number;
  /** JSON ThresholdCondition[]. */
  conditions: string;
  created_at: string;
  /** The version of versioned edits. */
  updated_at: string;
}

export interface ThresholdLogTable {
  id: Generated<number>;
  organization_id: number;
  building_id: number | null;
  robot_id: number | null;
  /** null once the rule is deleted; `rule_name` keeps its name. */
  rule_id: number | null;
  rule_name: string;
  /** `check_items.id` (migration 029), no foreign key. */
  check_item_id: number | null;
  check_item_name: string;
  value: number;
  /** JSON ThresholdCondition: the condition breached. */
  condition: string;
  level: number;
  photo_file_key: string | null;
  report_id: number | null;
  report_detail_id: number | null;
  /** JSON ThresholdNotified[]. */
  notified: string;
  at: string;
}
