// Generated from openapi.json by `npm run openapi` (packages/client/scripts/generate.ts); do not edit.
import type { Client } from 'openapi-fetch';
import { call, requestInit, type CallOptions, type IdempotencyOptions, type IfMatchOptions } from './call.js';
import type { AnswerEtags } from './etags.js';
import { paginate } from './paginate.js';
import type { paths } from './schema.js';
import type { AnswerOf, PathParams, QueryParams, RequestBody } from './types.js';

/** One method per operation of the document; each resolves to the `data` of the success body, its ETag kept in `etags`. */
export function operationMethods(api: Client<paths>, etags: AnswerEtags) {
  return {
    /** Add a member, or update the member with that e-mail (Alpha): `POST /admin/v0/members`. Needs the `members:write` scope. */
    addMember: async (params: RequestBody<'addMember'>, options: IdempotencyOptions = {}): Promise<AnswerOf<'addMember'>> => {
      return call(etags, api.POST('/admin/v0/members', { body: params, ...requestInit(options) }));
    },
    /** Give a badge to members, by chat user id: `POST /admin/v0/badges/{badge_id}/assign`. Needs the `members:write` scope. */
    assignBadge: async (params: PathParams<'assignBadge'> & RequestBody<'assignBadge'>, options: IdempotencyOptions = {}): Promise<AnswerOf<'assignBadge'>> => {
      const { badge_id, ...rest } = params;
      return call(etags, api.POST('/admin/v0/badges/{badge_id}/assign', { params: { path: { badge_id } }, body: rest, ...requestInit(options) }));
    },
    /** Create a calendar event: `POST /admin/v0/calendar_events`. Needs the `events:write` scope. */
    createCalendarEvent: async (params: RequestBody<'createCalendarEvent'>, options: IdempotencyOptions = {}): Promise<AnswerOf<'createCalendarEvent'>> => {
      return call(etags, api.POST('/admin/v0/calendar_events', { body: params, ...requestInit(options) }));
    },
    /** Deactivate a member; what they wrote or host stays as it is: `POST /admin/v0/members/{member_id}/deactivate`. Needs the `members:write` scope. */
    deactivateMember: async (params: PathParams<'deactivateMember'>, options: CallOptions = {}): Promise<AnswerOf<'deactivateMember'>> => {
      const { member_id } = params;
      return call(etags, api.POST('/admin/v0/members/{member_id}/deactivate', { params: { path: { member_id } }, ...requestInit(options) }));
    },
    /** Delete a calendar event: `DELETE /admin/v0/calendar_events/{calendar_event_id}`. Needs the `events:write` scope. */
    deleteCalendarEvent: async (params: PathParams<'deleteCalendarEvent'>, options: IfMatchOptions = {}): Promise<AnswerOf<'deleteCalendarEvent'>> => {
      const { calendar_event_id } = params;
      return call(etags, api.DELETE('/admin/v0/calendar_events/{calendar_event_id}', { params: { path: { calendar_event_id } }, ...requestInit(options) }));
    },
    /** Describe the calling token: `GET /admin/v0/api_key/me`. Needs the `read` scope. */
    getApiKey: async (params: Record<never, never> = {}, options: CallOptions = {}): Promise<AnswerOf<'getApiKey'>> => {
      return call(etags, api.GET('/admin/v0/api_key/me', { ...requestInit(options) }));
    },
    /** Retrieve a badge: `GET /admin/v0/badges/{badge_id}`. Needs the `read` scope. */
    getBadge: async (params: PathParams<'getBadge'>, options: CallOptions = {}): Promise<AnswerOf<'getBadge'>> => {
      const { badge_id } = params;
      return call(etags, api.GET('/admin/v0/badges/{badge_id}', { params: { path: { badge_id } }, ...requestInit(options) }));
    },
    /** Retrieve a calendar event: `GET /admin/v0/calendar_events/{calendar_event_id}`. Needs the `read` scope. */
    getCalendarEvent: async (params: PathParams<'getCalendarEvent'>, options: CallOptions = {}): Promise<AnswerOf<'getCalendarEvent'>> => {
      const { calendar_event_id } = params;
      return call(etags, api.GET('/admin/v0/calendar_events/{calendar_event_id}', { params: { path: { calendar_event_id } }, ...requestInit(options) }));
    },
    /** Retrieve a feed: `GET /admin/v0/feeds/{feed_id}`. Needs the `read` scope. */
    getFeed: async (params: PathParams<'getFeed'>, options: CallOptions = {}): Promise<AnswerOf<'getFeed'>> => {
      const { feed_id } = params;
      return call(etags, api.GET('/admin/v0/feeds/{feed_id}', { params: { path: { feed_id } }, ...requestInit(options) }));
    },
    /** Retrieve a group: `GET /admin/v0/groups/{group_id}`. Needs the `read` scope. */
    getGroup: async (params: PathParams<'getGroup'>, options: CallOptions = {}): Promise<AnswerOf<'getGroup'>> => {
      const { group_id } = params;
      return call(etags, api.GET('/admin/v0/groups/{group_id}', { params: { path: { group_id } }, ...requestInit(options) }));
    },
    /** Retrieve a post: `GET /admin/v0/posts/{post_id}`. Needs the `read` scope. */
    getPost: async (params: PathParams<'getPost'>, options: CallOptions = {}): Promise<AnswerOf<'getPost'>> => {
      const { post_id } = params;
      return call(etags, api.GET('/admin/v0/posts/{post_id}', { params: { path: { post_id } }, ...requestInit(options) }));
    },
    /** List badges: `GET /admin/v0/badges`. Needs the `read` scope. */
    listBadges: async (params: QueryParams<'listBadges'> = {}, options: CallOptions = {}): Promise<AnswerOf<'listBadges'>> => {
      return call(etags, api.GET('/admin/v0/badges', { params: { query: params }, ...requestInit(options) }));
    },
    /** List a calendar event's registrations: `GET /admin/v0/calendar_events/{calendar_event_id}/registrations`. Needs the `events:write` scope. */
    listCalendarEventRegistrations: async (params: PathParams<'listCalendarEventRegistrations'> & QueryParams<'listCalendarEventRegistrations'>, options: CallOptions = {}): Promise<AnswerOf<'listCalendarEventRegistrations'>> => {
      const { calendar_event_id, ...rest } = params;
      return call(etags, api.GET('/admin/v0/calendar_events/{calendar_event_id}/registrations', { params: { path: { calendar_event_id }, query: rest }, ...requestInit(options) }));
    },
    /** List calendar events: `GET /admin/v0/calendar_events`. Needs the `read` scope. */
    listCalendarEvents: async (params: QueryParams<'listCalendarEvents'> = {}, options: CallOptions = {}): Promise<AnswerOf<'listCalendarEvents'>> => {
      return call(etags, api.GET('/admin/v0/calendar_events', { params: { query: params }, ...requestInit(options) }));
    },
    /** List a feed's posts, or the Home feed's: `GET /admin/v0/feeds/{feed_id}/posts`. Needs the `read` scope. */
    listFeedPosts: async (params: PathParams<'listFeedPosts'> & QueryParams<'listFeedPosts'>, options: CallOptions = {}): Promise<AnswerOf<'listFeedPosts'>> => {
      const { feed_id, ...rest } = params;
      return call(etags, api.GET('/admin/v0/feeds/{feed_id}/posts', { params: { path: { feed_id }, query: rest }, ...requestInit(options) }));
    },
    /** List feeds: `GET /admin/v0/feeds`. Needs the `read` scope. */
    listFeeds: async (params: QueryParams<'listFeeds'> = {}, options: CallOptions = {}): Promise<AnswerOf<'listFeeds'>> => {
      return call(etags, api.GET('/admin/v0/feeds', { params: { query: params }, ...requestInit(options) }));
    },
    /** List groups: `GET /admin/v0/groups`. Needs the `read` scope. */
    listGroups: async (params: QueryParams<'listGroups'> = {}, options: CallOptions = {}): Promise<AnswerOf<'listGroups'>> => {
      return call(etags, api.GET('/admin/v0/groups', { params: { query: params }, ...requestInit(options) }));
    },
    /** Register a person for a calendar event (they become a member, as adding a member makes them): `POST /admin/v0/calendar_events/{calendar_event_id}/registrations`. Needs the `events:write` scope. */
    registerForCalendarEvent: async (params: PathParams<'registerForCalendarEvent'> & RequestBody<'registerForCalendarEvent'>, options: IdempotencyOptions = {}): Promise<AnswerOf<'registerForCalendarEvent'>> => {
      const { calendar_event_id, ...rest } = params;
      return call(etags, api.POST('/admin/v0/calendar_events/{calendar_event_id}/registrations', { params: { path: { calendar_event_id } }, body: rest, ...requestInit(options) }));
    },
    /** Replace a group's members, by chat user id: `PUT /admin/v0/groups/{group_id}/members`. Needs the `members:write` scope. */
    replaceGroupMembers: async (params: PathParams<'replaceGroupMembers'> & RequestBody<'replaceGroupMembers'>, options: CallOptions = {}): Promise<AnswerOf<'replaceGroupMembers'>> => {
      const { group_id, ...rest } = params;
      return call(etags, api.PUT('/admin/v0/groups/{group_id}/members', { params: { path: { group_id } }, body: rest, ...requestInit(options) }));
    },
    /** Search posts or comments (Beta): `GET /admin/v0/search`. Needs the `read` scope. */
    searchDocuments: async (params: QueryParams<'searchDocuments'>, options: CallOptions = {}): Promise<AnswerOf<'searchDocuments'>> => {
      return call(etags, api.GET('/admin/v0/search', { params: { query: params }, ...requestInit(options) }));
    },
    /** Remove a member's registration for a calendar event: `DELETE /admin/v0/calendar_events/{calendar_event_id}/registrations/{member_id}`. Needs the `events:write` scope. */
    unregisterFromCalendarEvent: async (params: PathParams<'unregisterFromCalendarEvent'>, options: CallOptions = {}): Promise<AnswerOf<'unregisterFromCalendarEvent'>> => {
      const { calendar_event_id, member_id } = params;
      return call(etags, api.DELETE('/admin/v0/calendar_events/{calendar_event_id}/registrations/{member_id}', { params: { path: { calendar_event_id, member_id } }, ...requestInit(options) }));
    },
    /** Change fields of a calendar event (JSON merge semantics; If-Match for optimistic concurrency): `PATCH /admin/v0/calendar_events/{calendar_event_id}`. Needs the `events:write` scope. */
    updateCalendarEvent: async (params: PathParams<'updateCalendarEvent'> & RequestBody<'updateCalendarEvent'>, options: IfMatchOptions = {}): Promise<AnswerOf<'updateCalendarEvent'>> => {
      const { calendar_event_id, ...rest } = params;
      return call(etags, api.PATCH('/admin/v0/calendar_events/{calendar_event_id}', { params: { path: { calendar_event_id } }, body: rest, ...requestInit(options) }));
    },
  };
}

export type OperationMethods = ReturnType<typeof operationMethods>;

/** Per list or search: an async iterator over every page, from `params.page` (0 when absent) on. */
export function pageMethods(methods: OperationMethods) {
  return {
    listBadges: (params: Parameters<OperationMethods['listBadges']>[0] = {}, options: CallOptions = {}): AsyncGenerator<AnswerOf<'listBadges'>, void, undefined> =>
      paginate((page) => methods.listBadges(page, options), params),
    listCalendarEventRegistrations: (params: Parameters<OperationMethods['listCalendarEventRegistrations']>[0], options: CallOptions = {}): AsyncGenerator<AnswerOf<'listCalendarEventRegistrations'>, void, undefined> =>
      paginate((page) => methods.listCalendarEventRegistrations(page, options), params),
    listCalendarEvents: (params: Parameters<OperationMethods['listCalendarEvents']>[0] = {}, options: CallOptions = {}): AsyncGenerator<AnswerOf<'listCalendarEvents'>, void, undefined> =>
      paginate((page) => methods.listCalendarEvents(page, options), params),
    listFeedPosts: (params: Parameters<OperationMethods['listFeedPosts']>[0], options: CallOptions = {}): AsyncGenerator<AnswerOf<'listFeedPosts'>, void, undefined> =>
      paginate((page) => methods.listFeedPosts(page, options), params),
    listFeeds: (params: Parameters<OperationMethods['listFeeds']>[0] = {}, options: CallOptions = {}): AsyncGenerator<AnswerOf<'listFeeds'>, void, undefined> =>
      paginate((page) => methods.listFeeds(page, options), params),
    listGroups: (params: Parameters<OperationMethods['listGroups']>[0] = {}, options: CallOptions = {}): AsyncGenerator<AnswerOf<'listGroups'>, void, undefined> =>
      paginate((page) => methods.listGroups(page, options), params),
    searchDocuments: (params: Parameters<OperationMethods['searchDocuments']>[0], options: CallOptions = {}): AsyncGenerator<AnswerOf<'searchDocuments'>, void, undefined> =>
      paginate((page) => methods.searchDocuments(page, options), params),
  };
}
