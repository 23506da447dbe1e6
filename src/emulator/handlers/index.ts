/** One handler per operation of the table, by operation name. */
import type { Handler } from '../context.js';
import { listAuthenticationMethods, listPhoneMethods } from './authentication.js';
import * as directory from './directory.js';
import * as groups from './groups.js';
import * as mail from './mail.js';
import * as workbook from './workbook.js';

export const HANDLERS: Readonly<Record<string, Handler>> = {
  listPhoneMethods,
  listAuthenticationMethods,
  replyToThread: groups.replyToThread,
  listThreadPosts: groups.listThreadPosts,
  getGroup: groups.getGroup,
  listChannels: groups.listChannels,
  listChannelTabs: groups.listChannelTabs,
  addGroupOwner: groups.addGroupOwner,
  removeTeamMembers: groups.removeTeamMembers,
  cloneTeam: groups.cloneTeam,
  getTeamOperation: groups.getTeamOperation,
  addChannelTab: groups.addChannelTab,
  messageDelta: mail.messageDelta,
  createMessage: mail.createMessage,
  updateMessage: mail.updateMessage,
  moveMessage: mail.moveMessage,
  deleteMessage: mail.deleteMessage,
  forwardEvent: mail.forwardEvent,
  getEvent: mail.getEvent,
  permanentDeleteEvent: mail.permanentDeleteEvent,
  updateNamedRangeBorder: workbook.updateNamedRangeBorder,
  updateRangeBorder: workbook.updateRangeBorder,
  updateColumnRangeBorder: workbook.updateColumnRangeBorder,
  getRangeBorder: workbook.getRangeBorder,
  listTableColumns: workbook.listTableColumns,
  getTableRange: workbook.getTableRange,
  getChartPoint: workbook.getChartPoint,
  createWorkbookSession: workbook.createWorkbookSession,
  closeWorkbookSession: workbook.closeWorkbookSession,
  getAssignmentRequest: directory.getAssignmentRequest,
  getApplicablePolicyRequirements: directory.getApplicablePolicyRequirements,
  deleteAssignmentPolicy: directory.deleteAssignmentPolicy,
  listHomeRealmDiscoveryPolicies: directory.listHomeRealmDiscoveryPolicies,
  getSubcategoryTemplate: directory.getSubcategoryTemplate,
  addCustodianSource: directory.addCustodianSource,
  listFixtures: directory.listFixtures,
  deleteBuildingMap: directory.deleteBuildingMap,
  getProgressTaskBoardFormat: directory.getProgressTaskBoardFormat,
  deleteEngagementRoleMember: directory.deleteEngagementRoleMember,
  deletePrintTaskDefinition: directory.deletePrintTaskDefinition,
  restoreCloudPc: directory.restoreCloudPc,
  addBundleItem: directory.addBundleItem,
};
