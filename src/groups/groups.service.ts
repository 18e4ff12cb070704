// The rules of groups: listing them and one by id with their members, and replacing a group's members with those
// named by chat user id (who joins keeps nothing of before; who stays keeps their added_at), through the write runner.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { StoreDialect } from '../db/dialect.js';
import { notFound } from '../errors.js';
import { offsetOf, toPage, type Page, type PageRequest } from '../lib/pagination.js';
import { invalidBody } from '../members/member-input.js';
import { membersByChatUser } from '../profiles/chat-users.js';
import type { Group } from '../schemas/group.js';
import type { Actor } from '../writes/actor.js';
import type { WriteRunner } from '../writes/write-runner.js';
import { toGroup, toGroups } from './group.mapper.js';
import { groupMembersChanged } from './group-messages.js';
import {
  changeMembers,
  countGroups,
  findGroup,
  lockGroup,
  membersOf,
  pageGroups,
  type GroupRow,
} from './groups.repository.js';

export function createGroupsService(db: Kysely<Database>, dialect: StoreDialect, writes: WriteRunner) {
  const withMembers = async (trx: Kysely<Database>, communityId: string, row: GroupRow): Promise<Group> =>
    toGroup(row, await membersOf(trx, communityId, [row.id]));

  return {
    async get(communityId: string, id: string): Promise<Group> {
      const row = await findGroup(db, communityId, id);
      if (!row) throw notFound(`Group '${id}'`);
      return withMembers(db, communityId, row);
    },

    async list(communityId: string, query: PageRequest): Promise<Page<Group>> {
      const [total, rows] = await Promise.all([
        countGroups(db, communityId),
        pageGroups(db, dialect, communityId, query.per_page, offsetOf(query)),
      ]);
      const members = await membersOf(
        db,
        communityId,
        rows.map((row) => row.id),
      );
      return toPage(query, total, toGroups(rows, members));
    },

    /**
     * Makes the members with these chat user ids the group's members, and no one else. An unknown group is 404, an
     * unknown chat user id 400 naming it; the same members as before commit no change.
     */
    replaceMembers(actor: Actor, groupId: string, users: readonly string[]): Promise<Group> {
      return writes.run(actor, async (trx, change) => {
        const communityId = actor.communityId;
        const group = await lockGroup(trx, dialect, communityId, groupId);
        if (!group) throw notFound(`Group '${groupId}'`);
        const named = await membersByChatUser(trx, communityId, users, 'users');
        if (named.problems.length > 0) throw invalidBody(named.problems);
        const before = await withMembers(trx, communityId, group);
        const wanted = new Set(named.profileIds);
        const kept = new Set(before.members.map((member) => member.profile_id));
        const added = named.profileIds.filter((id) => !kept.has(id));
        const removed = before.members.filter((member) => !wanted.has(member.profile_id)).map((m) => m.profile_id);
        if (added.length === 0 && removed.length === 0) {
          change.unchanged();
          return before;
        }
        await changeMembers(trx, communityId, groupId, { added, removed, at: change.at });
        const after = await withMembers(trx, communityId, (await findGroup(trx, communityId, groupId)) ?? group);
        await change.audit('group.members_changed', groupId, { name: group.name, added, removed });
        const message = groupMembersChanged(before.members, after);
        if (message) await change.announce([message]);
        return after;
      });
    },
  };
}
export type GroupsService = ReturnType<typeof createGroupsService>;
