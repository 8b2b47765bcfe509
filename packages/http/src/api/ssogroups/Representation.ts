/** Core's SSO group mappings in the v2 and v1 shapes. */
import type { SsoGroups } from "@costline/core"
import { toRoleAssignmentV1, toRoleAssignmentV2 } from "../roles/Schemas.js"
import type { SsoGroupMappingV1, SsoGroupV2 } from "./Api.js"

export const toSsoGroupV2 = ({ group, roles }: SsoGroups.SsoGroupWithRoles): typeof SsoGroupV2.Type => ({
  id: group.id,
  name: group.name,
  roles: roles.map(toRoleAssignmentV2),
  etag: group.etag,
  created_at: group.created_at,
  updated_at: group.updated_at,
  create_time: group.created_at,
  update_time: group.updated_at
})

export const toSsoGroupMappingV1 = ({ group, roles }: SsoGroups.SsoGroupWithRoles): typeof SsoGroupMappingV1.Type => ({
  sso_group_name: group.name,
  roles: roles.map(toRoleAssignmentV1)
})
