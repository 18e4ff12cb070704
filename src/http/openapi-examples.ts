// Real answers captured from the test fixtures by `npm run openapi` (scripts/openapi.ts); generated, do not edit.

/** By operationId, then status, then example key: a summary and the body answered. */
export type CapturedExamples = Record<string, Record<string, Record<string, { summary: string; value: unknown }>>>;

export const responseExamples: CapturedExamples = {
  "getCalendarEvent": {
    "200": {
      "an-event-across-a-dst-change": {
        "summary": "An event across a DST change",
        "value": {
          "success": true,
          "data": {
            "id": "evdstcross01",
            "created_at": "2026-01-01 00:00:00.500000+00",
            "updated_at": "2026-01-01 00:00:00.500000+00",
            "allow_public_guest_list": false,
            "description_chat_blocks": null,
            "description_chat_blocks_references": {
              "mentioned_chat_users": [],
              "mentioned_chat_channels": [],
              "custom_emojis": [],
              "urls": []
            },
            "enable_registration_button": false,
            "end_date": "2026-03-09T10:00:00-07:00",
            "external_speakers": null,
            "is_unlisted": false,
            "link": null,
            "location": "Hangar 1",
            "partner_event_id": null,
            "publish_to_site": true,
            "triggers_webhooks": false,
            "recap_chat_blocks": null,
            "recap_chat_blocks_references": {
              "mentioned_chat_users": [],
              "mentioned_chat_channels": [],
              "custom_emojis": [],
              "urls": []
            },
            "recording_link": null,
            "webhook_custom_metadata": null,
            "show_end_date": false,
            "slug": "weekend-hack-across-dst",
            "start_date": "2026-03-07T10:00:00-08:00",
            "status": "published",
            "title": "Weekend Hack: across DST!",
            "use_registration_btn_as_link": false,
            "attendees_count": 0,
            "cover_image_url": null,
            "published_to": [
              {
                "chat_channel_id": "C0EVENTS01",
                "chat_message_permalink": "https://chat.example.com/archives/C0EVENTS01/p1",
                "feed_id": "7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0002"
              }
            ],
            "hosts": [
              {
                "profile_id": "5b1c2d3e-0000-4000-8000-00000000000a",
                "created_at": "2025-02-03 04:05:06.123456+00",
                "preferred_name": "Ada Lovelace",
                "preferred_image_original": "https://img.example.com/ada.png",
                "preferred_image_1024": "https://img.example.com/ada-1024.png",
                "preferred_image_512": null,
                "preferred_image_192": null,
                "preferred_image_72": "https://img.example.com/ada-72.png",
                "preferred_image_48": null,
                "preferred_image_32": null,
                "preferred_image_24": null,
                "first_name": "Ada",
                "last_name": "Lovelace",
                "email": "ada@example.com",
                "chat_user_id": "U0ADA00001",
                "chat_is_admin": true,
                "chat_is_bot": false,
                "chat_first_name": "Ada",
                "chat_last_name": "Lovelace",
                "chat_image_72": "https://chat.example.com/ada-72.png",
                "chat_image_original": "https://chat.example.com/ada.png",
                "is_deactivated": false
              }
            ],
            "speakers": [
              {
                "profile_id": "5b1c2d3e-0000-4000-8000-00000000000a",
                "created_at": "2025-02-03 04:05:06.123456+00",
                "preferred_name": "Ada Lovelace",
                "preferred_image_original": "https://img.example.com/ada.png",
                "preferred_image_1024": "https://img.example.com/ada-1024.png",
                "preferred_image_512": null,
                "preferred_image_192": null,
                "preferred_image_72": "https://img.example.com/ada-72.png",
                "preferred_image_48": null,
                "preferred_image_32": null,
                "preferred_image_24": null,
                "first_name": "Ada",
                "last_name": "Lovelace",
                "email": "ada@example.com",
                "chat_user_id": "U0ADA00001",
                "chat_is_admin": true,
                "chat_is_bot": false,
                "chat_first_name": "Ada",
                "chat_last_name": "Lovelace",
                "chat_image_72": "https://chat.example.com/ada-72.png",
                "chat_image_original": "https://chat.example.com/ada.png",
                "is_deactivated": false
              }
            ],
            "tags": [
              {
                "id": "tag-workshop",
                "created_at": "2025-01-05 00:00:00.000000+00",
                "tag_group_id": "format",
                "label": "Workshop"
              }
            ]
          }
        }
      }
    },
    "400": {
      "id-of-the-wrong-length": {
        "summary": "Id of the wrong length",
        "value": {
          "success": false,
          "error": "Invalid parameter 'calendar_event_id': must NOT have fewer than 12 characters.",
          "code": "invalid_parameter",
          "request_id": "req-getCalendarEvent-id-of-the-wrong-length",
          "details": [
            {
              "field": "calendar_event_id",
              "message": "must NOT have fewer than 12 characters"
            }
          ]
        }
      }
    },
    "401": {
      "no-token": {
        "summary": "No token",
        "value": {
          "success": false,
          "error": "Missing or malformed Authorization header; expected \"Bearer <token>\".",
          "code": "unauthorized",
          "request_id": "req-getCalendarEvent-no-token"
        }
      }
    },
    "403": {
      "a-token-without-the-scope": {
        "summary": "A token without the scope",
        "value": {
          "success": false,
          "error": "This operation needs the 'read' scope; the token has: members:write, events:write.",
          "code": "insufficient_scope",
          "request_id": "req-getCalendarEvent-a-token-without-the-scope"
        }
      }
    },
    "404": {
      "unknown-id": {
        "summary": "Unknown id",
        "value": {
          "success": false,
          "error": "Calendar event 'evnotthere01' was not found.",
          "code": "not_found",
          "request_id": "req-getCalendarEvent-unknown-id"
        }
      }
    },
    "429": {
      "over-the-rate-limit": {
        "summary": "Over the rate limit",
        "value": {
          "success": false,
          "error": "Rate limit of 1 requests per second exceeded; retry in 1 second.",
          "code": "rate_limited",
          "request_id": "req-getCalendarEvent-over-the-rate-limit"
        }
      }
    }
  },
  "updateCalendarEvent": {
    "200": {
      "a-new-title-and-location": {
        "summary": "A new title and location",
        "value": {
          "success": true,
          "data": {
            "id": "evexample001",
            "created_at": "2026-03-01 09:00:00.000000+00",
            "updated_at": "2026-03-10 12:00:00.000000+00",
            "allow_public_guest_list": false,
            "description_chat_blocks": null,
            "description_chat_blocks_references": {
              "mentioned_chat_users": [],
              "mentioned_chat_channels": [],
              "custom_emojis": [],
              "urls": []
            },
            "enable_registration_button": false,
            "end_date": "2026-05-01T12:00:00+00:00",
            "external_speakers": null,
            "is_unlisted": false,
            "link": null,
            "location": "Room 2",
            "partner_event_id": null,
            "publish_to_site": false,
            "triggers_webhooks": false,
            "recap_chat_blocks": null,
            "recap_chat_blocks_references": {
              "mentioned_chat_users": [],
              "mentioned_chat_channels": [],
              "custom_emojis": [],
              "urls": []
            },
            "recording_link": null,
            "webhook_custom_metadata": null,
            "show_end_date": false,
            "slug": "example-1",
            "start_date": "2026-05-01T10:00:00+00:00",
            "status": "draft",
            "title": "Example, renamed",
            "use_registration_btn_as_link": false,
            "attendees_count": 0,
            "cover_image_url": null,
            "published_to": [],
            "hosts": [
              {
                "profile_id": "5b1c2d3e-0000-4000-8000-00000000000a",
                "created_at": "2025-02-03 04:05:06.123456+00",
                "preferred_name": "Ada Lovelace",
                "preferred_image_original": "https://img.example.com/ada.png",
                "preferred_image_1024": "https://img.example.com/ada-1024.png",
                "preferred_image_512": null,
                "preferred_image_192": null,
                "preferred_image_72": "https://img.example.com/ada-72.png",
                "preferred_image_48": null,
                "preferred_image_32": null,
                "preferred_image_24": null,
                "first_name": "Ada",
                "last_name": "Lovelace",
                "email": "ada@example.com",
                "chat_user_id": "U0ADA00001",
                "chat_is_admin": true,
                "chat_is_bot": false,
                "chat_first_name": "Ada",
                "chat_last_name": "Lovelace",
                "chat_image_72": "https://chat.example.com/ada-72.png",
                "chat_image_original": "https://chat.example.com/ada.png",
                "is_deactivated": false
              }
            ],
            "speakers": [],
            "tags": []
          }
        }
      }
    },
    "401": {
      "no-token": {
        "summary": "No token",
        "value": {
          "success": false,
          "error": "Missing or malformed Authorization header; expected \"Bearer <token>\".",
          "code": "unauthorized",
          "request_id": "req-updateCalendarEvent-no-token"
        }
      }
    },
    "403": {
      "a-token-without-the-scope": {
        "summary": "A token without the scope",
        "value": {
          "success": false,
          "error": "This operation needs the 'events:write' scope; the token has: read, members:write.",
          "code": "insufficient_scope",
          "request_id": "req-updateCalendarEvent-a-token-without-the-scope"
        }
      }
    },
    "404": {
      "unknown-id": {
        "summary": "Unknown id",
        "value": {
          "success": false,
          "error": "Calendar event 'evnotthere01' was not found.",
          "code": "not_found",
          "request_id": "req-updateCalendarEvent-unknown-id"
        }
      }
    },
    "412": {
      "a-stale-if-match": {
        "summary": "A stale If-Match",
        "value": {
          "success": false,
          "error": "The record changed since the ETag in If-Match was read; read it again and retry.",
          "code": "precondition_failed",
          "request_id": "req-updateCalendarEvent-a-stale-if-match"
        }
      }
    },
    "429": {
      "over-the-rate-limit": {
        "summary": "Over the rate limit",
        "value": {
          "success": false,
          "error": "Rate limit of 1 requests per second exceeded; retry in 1 second.",
          "code": "rate_limited",
          "request_id": "req-updateCalendarEvent-over-the-rate-limit"
        }
      }
    }
  },
  "deleteCalendarEvent": {
    "200": {
      "deleting-an-event": {
        "summary": "Deleting an event",
        "value": {
          "success": true,
          "data": {
            "id": "evexample002"
          }
        }
      }
    },
    "401": {
      "no-token": {
        "summary": "No token",
        "value": {
          "success": false,
          "error": "Missing or malformed Authorization header; expected \"Bearer <token>\".",
          "code": "unauthorized",
          "request_id": "req-deleteCalendarEvent-no-token"
        }
      }
    },
    "403": {
      "a-token-without-the-scope": {
        "summary": "A token without the scope",
        "value": {
          "success": false,
          "error": "This operation needs the 'events:write' scope; the token has: read, members:write.",
          "code": "insufficient_scope",
          "request_id": "req-deleteCalendarEvent-a-token-without-the-scope"
        }
      }
    },
    "404": {
      "deleting-it-again": {
        "summary": "Deleting it again",
        "value": {
          "success": false,
          "error": "Calendar event 'evexample002' was not found.",
          "code": "not_found",
          "request_id": "req-deleteCalendarEvent-deleting-it-again"
        }
      }
    },
    "429": {
      "over-the-rate-limit": {
        "summary": "Over the rate limit",
        "value": {
          "success": false,
          "error": "Rate limit of 1 requests per second exceeded; retry in 1 second.",
          "code": "rate_limited",
          "request_id": "req-deleteCalendarEvent-over-the-rate-limit"
        }
      }
    }
  },
  "listCalendarEvents": {
    "200": {
      "past-events-one-per-page": {
        "summary": "Past events, one per page",
        "value": {
          "success": true,
          "data": {
            "page": 0,
            "per_page": 1,
            "count": 1,
            "total_records": 3,
            "total_pages": 3,
            "has_next": true,
            "records": [
              {
                "id": "evongoing001",
                "created_at": "2026-01-02 00:00:00.000000+00",
                "updated_at": "2026-01-02 00:00:00.000000+00",
                "allow_public_guest_list": false,
                "description_chat_blocks": null,
                "description_chat_blocks_references": {
                  "mentioned_chat_users": [],
                  "mentioned_chat_channels": [],
                  "custom_emojis": [],
                  "urls": []
                },
                "enable_registration_button": false,
                "end_date": "2026-03-10T14:00:00+00:00",
                "external_speakers": null,
                "is_unlisted": false,
                "link": null,
                "location": null,
                "partner_event_id": null,
                "publish_to_site": true,
                "triggers_webhooks": false,
                "recap_chat_blocks": null,
                "recap_chat_blocks_references": {
                  "mentioned_chat_users": [],
                  "mentioned_chat_channels": [],
                  "custom_emojis": [],
                  "urls": []
                },
                "recording_link": null,
                "webhook_custom_metadata": null,
                "show_end_date": false,
                "slug": "office-hours",
                "start_date": "2026-03-10T10:00:00+00:00",
                "status": "published",
                "title": "Office hours",
                "use_registration_btn_as_link": false,
                "attendees_count": 0,
                "cover_image_url": null,
                "published_to": [],
                "hosts": [
                  {
                    "profile_id": "5b1c2d3e-0000-4000-8000-00000000000b",
                    "created_at": "2025-02-04 10:00:00.000000+00",
                    "preferred_name": "Grace Hopper",
                    "preferred_image_original": null,
                    "preferred_image_1024": null,
                    "preferred_image_512": null,
                    "preferred_image_192": null,
                    "preferred_image_72": null,
                    "preferred_image_48": null,
                    "preferred_image_32": null,
                    "preferred_image_24": null,
                    "first_name": "Grace",
                    "last_name": "Hopper",
                    "email": "grace@example.com",
                    "chat_user_id": "U0GRACE001",
                    "chat_is_admin": false,
                    "chat_is_bot": false,
                    "chat_first_name": null,
                    "chat_last_name": null,
                    "chat_image_72": null,
                    "chat_image_original": null,
                    "is_deactivated": false
                  },
                  {
                    "profile_id": "5b1c2d3e-0000-4000-8000-00000000000a",
                    "created_at": "2025-02-03 04:05:06.123456+00",
                    "preferred_name": "Ada Lovelace",
                    "preferred_image_original": "https://img.example.com/ada.png",
                    "preferred_image_1024": "https://img.example.com/ada-1024.png",
                    "preferred_image_512": null,
                    "preferred_image_192": null,
                    "preferred_image_72": "https://img.example.com/ada-72.png",
                    "preferred_image_48": null,
                    "preferred_image_32": null,
                    "preferred_image_24": null,
                    "first_name": "Ada",
                    "last_name": "Lovelace",
                    "email": "ada@example.com",
                    "chat_user_id": "U0ADA00001",
                    "chat_is_admin": true,
                    "chat_is_bot": false,
                    "chat_first_name": "Ada",
                    "chat_last_name": "Lovelace",
                    "chat_image_72": "https://chat.example.com/ada-72.png",
                    "chat_image_original": "https://chat.example.com/ada.png",
                    "is_deactivated": false
                  }
                ],
                "speakers": [],
                "tags": []
              }
            ]
          }
        }
      }
    },
    "400": {
      "per-page-above-100": {
        "summary": "per_page above 100",
        "value": {
          "success": false,
          "error": "Invalid parameter 'per_page': must be <= 100.",
          "code": "invalid_parameter",
          "request_id": "req-listCalendarEvents-per-page-above-100",
          "details": [
            {
              "field": "per_page",
              "message": "must be <= 100"
            }
          ]
        }
      }
    },
    "401": {
      "no-token": {
        "summary": "No token",
        "value": {
          "success": false,
          "error": "Missing or malformed Authorization header; expected \"Bearer <token>\".",
          "code": "unauthorized",
          "request_id": "req-listCalendarEvents-no-token"
        }
      }
    },
    "403": {
      "a-token-without-the-scope": {
        "summary": "A token without the scope",
        "value": {
          "success": false,
          "error": "This operation needs the 'read' scope; the token has: members:write, events:write.",
          "code": "insufficient_scope",
          "request_id": "req-listCalendarEvents-a-token-without-the-scope"
        }
      }
    },
    "404": {
      "archived-feed": {
        "summary": "Archived feed",
        "value": {
          "success": false,
          "error": "Feed '7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0003' was not found.",
          "code": "not_found",
          "request_id": "req-listCalendarEvents-archived-feed"
        }
      }
    },
    "429": {
      "over-the-rate-limit": {
        "summary": "Over the rate limit",
        "value": {
          "success": false,
          "error": "Rate limit of 1 requests per second exceeded; retry in 1 second.",
          "code": "rate_limited",
          "request_id": "req-listCalendarEvents-over-the-rate-limit"
        }
      }
    }
  },
  "createCalendarEvent": {
    "201": {
      "a-new-event": {
        "summary": "A new event",
        "value": {
          "success": true,
          "data": {
            "id": "evcreated001",
            "created_at": "2026-03-10 12:00:00.000000+00",
            "updated_at": "2026-03-10 12:00:00.000000+00",
            "allow_public_guest_list": false,
            "description_chat_blocks": [
              {
                "type": "rich_text",
                "elements": [
                  {
                    "type": "rich_text_section",
                    "elements": [
                      {
                        "type": "text",
                        "text": "Talks, demos and pizza."
                      }
                    ]
                  }
                ]
              }
            ],
            "description_chat_blocks_references": {
              "mentioned_chat_users": [],
              "mentioned_chat_channels": [],
              "custom_emojis": [],
              "urls": []
            },
            "enable_registration_button": false,
            "end_date": "2026-04-01T20:00:00-07:00",
            "external_speakers": null,
            "is_unlisted": false,
            "link": null,
            "location": null,
            "partner_event_id": null,
            "publish_to_site": false,
            "triggers_webhooks": true,
            "recap_chat_blocks": null,
            "recap_chat_blocks_references": {
              "mentioned_chat_users": [],
              "mentioned_chat_channels": [],
              "custom_emojis": [],
              "urls": []
            },
            "recording_link": null,
            "webhook_custom_metadata": "crm-campaign-42",
            "show_end_date": false,
            "slug": "spring-meetup",
            "start_date": "2026-04-01T18:00:00-07:00",
            "status": "published",
            "title": "Spring meetup",
            "use_registration_btn_as_link": false,
            "attendees_count": 0,
            "cover_image_url": null,
            "published_to": [
              {
                "chat_channel_id": "C0EVENTS01",
                "chat_message_permalink": null,
                "feed_id": "7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0002"
              }
            ],
            "hosts": [
              {
                "profile_id": "5b1c2d3e-0000-4000-8000-00000000000a",
                "created_at": "2025-02-03 04:05:06.123456+00",
                "preferred_name": "Ada Lovelace",
                "preferred_image_original": "https://img.example.com/ada.png",
                "preferred_image_1024": "https://img.example.com/ada-1024.png",
                "preferred_image_512": null,
                "preferred_image_192": null,
                "preferred_image_72": "https://img.example.com/ada-72.png",
                "preferred_image_48": null,
                "preferred_image_32": null,
                "preferred_image_24": null,
                "first_name": "Ada",
                "last_name": "Lovelace",
                "email": "ada@example.com",
                "chat_user_id": "U0ADA00001",
                "chat_is_admin": true,
                "chat_is_bot": false,
                "chat_first_name": "Ada",
                "chat_last_name": "Lovelace",
                "chat_image_72": "https://chat.example.com/ada-72.png",
                "chat_image_original": "https://chat.example.com/ada.png",
                "is_deactivated": false
              }
            ],
            "speakers": [],
            "tags": []
          }
        }
      }
    },
    "400": {
      "end-before-start": {
        "summary": "End before start",
        "value": {
          "success": false,
          "error": "Invalid body field 'end_date': must be after start_date.",
          "code": "invalid_body",
          "request_id": "req-createCalendarEvent-end-before-start",
          "details": [
            {
              "field": "end_date",
              "message": "must be after start_date"
            }
          ]
        }
      },
      "an-unknown-host": {
        "summary": "An unknown host",
        "value": {
          "success": false,
          "error": "Invalid body field 'hosts.0': no profile or member 'nobody@example.com' in this community.",
          "code": "invalid_body",
          "request_id": "req-createCalendarEvent-an-unknown-host",
          "details": [
            {
              "field": "hosts.0",
              "message": "no profile or member 'nobody@example.com' in this community"
            }
          ]
        }
      }
    },
    "401": {
      "no-token": {
        "summary": "No token",
        "value": {
          "success": false,
          "error": "Missing or malformed Authorization header; expected \"Bearer <token>\".",
          "code": "unauthorized",
          "request_id": "req-createCalendarEvent-no-token"
        }
      }
    },
    "403": {
      "a-token-without-the-scope": {
        "summary": "A token without the scope",
        "value": {
          "success": false,
          "error": "This operation needs the 'events:write' scope; the token has: read, members:write.",
          "code": "insufficient_scope",
          "request_id": "req-createCalendarEvent-a-token-without-the-scope"
        }
      }
    },
    "429": {
      "over-the-rate-limit": {
        "summary": "Over the rate limit",
        "value": {
          "success": false,
          "error": "Rate limit of 1 requests per second exceeded; retry in 1 second.",
          "code": "rate_limited",
          "request_id": "req-createCalendarEvent-over-the-rate-limit"
        }
      }
    }
  },
  "searchDocuments": {
    "200": {
      "posts-with-highlights": {
        "summary": "Posts, with highlights",
        "value": {
          "success": true,
          "data": {
            "page": 0,
            "per_page": 1,
            "count": 1,
            "total_records": 1,
            "total_pages": 1,
            "has_next": false,
            "records": [
              {
                "id": "postwelcome1",
                "created_at": "2026-03-01 10:00:00.000000+00",
                "updated_at": "2026-03-01 10:05:00.250000+00",
                "content_created_at": "2026-03-01 09:59:59.999999+00",
                "latest_activity_at": "2026-03-03 08:00:00.000000+00",
                "title": "Welcome to Hearth: read me first!",
                "slug": "welcome-to-hearth-read-me-first",
                "feed_id": "7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0001",
                "post_detail_display_format": "chat_message",
                "author_profile_id": "5b1c2d3e-0000-4000-8000-00000000000a",
                "read_time_minutes": 1,
                "source": "chat",
                "file_attachments_count": 1,
                "reactions_count": 7,
                "comments_count": 2,
                "body_plaintext": "@here Welcome! Say hi to @Grace Hopper and read the guide before posting in #Events & Meetups :partyparrot:👍\n1. Photos: https://img.example.com/team.png\n2. Recording: https://youtu.be/abc123xyz, slides at https://hearth.example.com/guide\n> Be kind, @Grace Hopper says so.\nnpx hearth serve\n@U0NOTOURS1 also joined #C0ELSEWHR1",
                "body_prosemirror": null,
                "chat_message": {
                  "id": "3f2b1c0d-9e8f-4a7b-8c6d-5e4f3a2b1c0d",
                  "message_ts": 1772359200.123456,
                  "blocks": [
                    {
                      "type": "rich_text",
                      "elements": [
                        {
                          "type": "rich_text_section",
                          "elements": [
                            {
                              "type": "broadcast",
                              "range": "here"
                            },
                            {
                              "type": "text",
                              "text": " Welcome! Say hi to "
                            },
                            {
                              "type": "user",
                              "user_id": "U0GRACE001"
                            },
                            {
                              "type": "text",
                              "text": " and read "
                            },
                            {
                              "type": "link",
                              "url": "https://hearth.example.com/guide",
                              "text": "the guide"
                            },
                            {
                              "type": "text",
                              "text": " before posting in "
                            },
                            {
                              "type": "channel",
                              "channel_id": "C0EVENTS01"
                            },
                            {
                              "type": "text",
                              "text": " ",
                              "style": {
                                "bold": true
                              }
                            },
                            {
                              "type": "emoji",
                              "name": "partyparrot",
                              "url": "https://emoji.example.com/partyparrot.gif"
                            },
                            {
                              "type": "emoji",
                              "name": "+1",
                              "unicode": "1f44d"
                            },
                            {
                              "type": "text",
                              "text": "\n"
                            }
                          ]
                        },
                        {
                          "type": "rich_text_list",
                          "style": "ordered",
                          "indent": 0,
                          "elements": [
                            {
                              "type": "rich_text_section",
                              "elements": [
                                {
                                  "type": "text",
                                  "text": "Photos: https://img.example.com/team.png"
                                }
                              ]
                            },
                            {
                              "type": "rich_text_section",
                              "elements": [
                                {
                                  "type": "text",
                                  "text": "Recording: https://youtu.be/abc123xyz, slides at "
                                },
                                {
                                  "type": "link",
                                  "url": "https://hearth.example.com/guide"
                                }
                              ]
                            }
                          ]
                        },
                        {
                          "type": "rich_text_quote",
                          "elements": [
                            {
                              "type": "text",
                              "text": "Be kind, "
                            },
                            {
                              "type": "user",
                              "user_id": "U0GRACE001"
                            },
                            {
                              "type": "text",
                              "text": " says so."
                            }
                          ]
                        },
                        {
                          "type": "rich_text_preformatted",
                          "elements": [
                            {
                              "type": "text",
                              "text": "npx hearth serve"
                            }
                          ]
                        },
                        {
                          "type": "rich_text_section",
                          "elements": [
                            {
                              "type": "user",
                              "user_id": "U0NOTOURS1"
                            },
                            {
                              "type": "text",
                              "text": " also joined "
                            },
                            {
                              "type": "channel",
                              "channel_id": "C0ELSEWHR1"
                            }
                          ]
                        }
                      ],
                      "block_id": "b1Xy"
                    }
                  ],
                  "markdown": "<!here> Welcome! Say hi to <@U0GRACE001> …",
                  "permalink": "https://chat.example.com/archives/C0GENERAL1/p1772359200123456",
                  "parent_chat_message_id": null,
                  "username": "Ada Lovelace",
                  "icon": "https://chat.example.com/ada-72.png"
                },
                "cover_image_file_id": "F0COVER001",
                "cover_image_url": "https://files.example.com/cover.png",
                "author": {
                  "profile_id": "5b1c2d3e-0000-4000-8000-00000000000a",
                  "created_at": "2025-02-03 04:05:06.123456+00",
                  "preferred_name": "Ada Lovelace",
                  "preferred_image_original": "https://img.example.com/ada.png",
                  "preferred_image_1024": "https://img.example.com/ada-1024.png",
                  "preferred_image_512": null,
                  "preferred_image_192": null,
                  "preferred_image_72": "https://img.example.com/ada-72.png",
                  "preferred_image_48": null,
                  "preferred_image_32": null,
                  "preferred_image_24": null,
                  "first_name": "Ada",
                  "last_name": "Lovelace",
                  "email": "ada@example.com",
                  "chat_user_id": "U0ADA00001",
                  "chat_is_admin": true,
                  "chat_is_bot": false,
                  "chat_first_name": "Ada",
                  "chat_last_name": "Lovelace",
                  "chat_image_72": "https://chat.example.com/ada-72.png",
                  "chat_image_original": "https://chat.example.com/ada.png",
                  "is_deactivated": false
                },
                "feed": {
                  "id": "7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0001",
                  "label": "General",
                  "slug": "general"
                },
                "references": {
                  "mentioned_chat_users": [
                    {
                      "profile_id": "5b1c2d3e-0000-4000-8000-00000000000b",
                      "preferred_name": "Grace Hopper",
                      "chat_user_id": "U0GRACE001"
                    }
                  ],
                  "mentioned_chat_channels": [
                    {
                      "chat_channel": {
                        "id": "C0EVENTS01",
                        "name": "Events & Meetups"
                      },
                      "feed": {
                        "id": "7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0002",
                        "label": "Events & Meetups",
                        "slug": "events--meetups"
                      }
                    }
                  ],
                  "custom_emojis": [
                    {
                      "alias": "partyparrot",
                      "name": "partyparrot",
                      "url": "https://emoji.example.com/partyparrot.gif"
                    }
                  ],
                  "urls": [
                    {
                      "order_seen": 0,
                      "is_embedded_media": false,
                      "is_image": false,
                      "is_video": false,
                      "url": "https://hearth.example.com/guide"
                    },
                    {
                      "order_seen": 1,
                      "is_embedded_media": true,
                      "is_image": true,
                      "is_video": false,
                      "url": "https://img.example.com/team.png"
                    },
                    {
                      "order_seen": 2,
                      "is_embedded_media": true,
                      "is_image": false,
                      "is_video": true,
                      "url": "https://youtu.be/abc123xyz"
                    }
                  ]
                },
                "highlight": "<mark>Welcome</mark> to Hearth: read me first!\n@here <mark>Welcome</mark>! Say hi to @Grace Hopper and read the guide before posting in #Events &amp; Meetups :partyparrot:👍\n1. Photos: https://img.example.com/team.png\n2. Recording: https://youtu.be/abc123xyz, slides at https://hearth.example.com/guide\n&gt; Be kind, @Grace Hopper…"
              }
            ]
          }
        }
      },
      "comments": {
        "summary": "Comments",
        "value": {
          "success": true,
          "data": {
            "page": 0,
            "per_page": 1,
            "count": 1,
            "total_records": 1,
            "total_pages": 1,
            "has_next": false,
            "records": [
              {
                "id": "comment00002",
                "created_at": "2026-03-03 08:00:00.000000+00",
                "updated_at": "2026-03-03 08:00:00.000000+00",
                "parent_post_id": "postwelcome1",
                "parent_comment_id": "comment00001",
                "feed_id": "7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0001",
                "author_profile_id": "5b1c2d3e-0000-4000-8000-00000000000a",
                "body_plaintext": "Hello Grace",
                "chat_message": null,
                "reactions_count": 0,
                "file_attachments_count": 0,
                "author": {
                  "profile_id": "5b1c2d3e-0000-4000-8000-00000000000a",
                  "created_at": "2025-02-03 04:05:06.123456+00",
                  "preferred_name": "Ada Lovelace",
                  "preferred_image_original": "https://img.example.com/ada.png",
                  "preferred_image_1024": "https://img.example.com/ada-1024.png",
                  "preferred_image_512": null,
                  "preferred_image_192": null,
                  "preferred_image_72": "https://img.example.com/ada-72.png",
                  "preferred_image_48": null,
                  "preferred_image_32": null,
                  "preferred_image_24": null,
                  "first_name": "Ada",
                  "last_name": "Lovelace",
                  "email": "ada@example.com",
                  "chat_user_id": "U0ADA00001",
                  "chat_is_admin": true,
                  "chat_is_bot": false,
                  "chat_first_name": "Ada",
                  "chat_last_name": "Lovelace",
                  "chat_image_72": "https://chat.example.com/ada-72.png",
                  "chat_image_original": "https://chat.example.com/ada.png",
                  "is_deactivated": false
                },
                "feed": {
                  "id": "7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0001",
                  "label": "General",
                  "slug": "general"
                },
                "references": {
                  "mentioned_chat_users": [],
                  "mentioned_chat_channels": [],
                  "custom_emojis": [],
                  "urls": []
                },
                "parent_post": {
                  "id": "postwelcome1",
                  "created_at": "2026-03-01 10:00:00.000000+00",
                  "title": "Welcome to Hearth: read me first!",
                  "slug": "welcome-to-hearth-read-me-first"
                }
              }
            ]
          }
        }
      }
    },
    "400": {
      "missing-q": {
        "summary": "Missing q",
        "value": {
          "success": false,
          "error": "Invalid parameter 'q': must have required property 'q'.",
          "code": "invalid_parameter",
          "request_id": "req-searchDocuments-missing-q",
          "details": [
            {
              "field": "q",
              "message": "must have required property 'q'"
            }
          ]
        }
      }
    },
    "401": {
      "no-token": {
        "summary": "No token",
        "value": {
          "success": false,
          "error": "Missing or malformed Authorization header; expected \"Bearer <token>\".",
          "code": "unauthorized",
          "request_id": "req-searchDocuments-no-token"
        }
      }
    },
    "403": {
      "a-token-without-the-scope": {
        "summary": "A token without the scope",
        "value": {
          "success": false,
          "error": "This operation needs the 'read' scope; the token has: members:write, events:write.",
          "code": "insufficient_scope",
          "request_id": "req-searchDocuments-a-token-without-the-scope"
        }
      }
    },
    "429": {
      "over-the-rate-limit": {
        "summary": "Over the rate limit",
        "value": {
          "success": false,
          "error": "Rate limit of 1 requests per second exceeded; retry in 1 second.",
          "code": "rate_limited",
          "request_id": "req-searchDocuments-over-the-rate-limit"
        }
      }
    }
  },
  "addMember": {
    "200": {
      "a-known-e-mail-in-another-case": {
        "summary": "A known e-mail, in another case",
        "value": {
          "success": true,
          "message": "Member already existed and was updated successfully.",
          "data": {
            "member": {
              "id": "3f6c2a1e-8b7d-4c55-9e2a-5d1b0c7e4f10",
              "email": "katherine@example.com",
              "full_name": "Katherine G. Johnson",
              "preferred_name": "Katherine G. Johnson",
              "avatar_url_original": null,
              "chat_profile_id": null,
              "is_deactivated": false
            }
          }
        }
      }
    },
    "201": {
      "a-new-e-mail": {
        "summary": "A new e-mail",
        "value": {
          "success": true,
          "message": "New member was created successfully.",
          "data": {
            "member": {
              "id": "3f6c2a1e-8b7d-4c55-9e2a-5d1b0c7e4f10",
              "email": "katherine@example.com",
              "full_name": "Katherine Johnson",
              "preferred_name": "Katherine Johnson",
              "avatar_url_original": null,
              "chat_profile_id": null,
              "is_deactivated": false
            }
          }
        }
      }
    },
    "400": {
      "invalid-e-mail": {
        "summary": "Invalid e-mail",
        "value": {
          "success": false,
          "error": "Invalid body field 'email': must match format \"email\".",
          "code": "invalid_body",
          "request_id": "req-addMember-invalid-e-mail",
          "details": [
            {
              "field": "email",
              "message": "must match format \"email\""
            }
          ]
        }
      }
    },
    "401": {
      "no-token": {
        "summary": "No token",
        "value": {
          "success": false,
          "error": "Missing or malformed Authorization header; expected \"Bearer <token>\".",
          "code": "unauthorized",
          "request_id": "req-addMember-no-token"
        }
      }
    },
    "403": {
      "a-token-without-the-scope": {
        "summary": "A token without the scope",
        "value": {
          "success": false,
          "error": "This operation needs the 'members:write' scope; the token has: read, events:write.",
          "code": "insufficient_scope",
          "request_id": "req-addMember-a-token-without-the-scope"
        }
      }
    },
    "413": {
      "a-body-over-the-size-limit": {
        "summary": "A body over the size limit",
        "value": {
          "success": false,
          "error": "The request body is too large.",
          "code": "payload_too_large",
          "request_id": "req-addMember-a-body-over-the-size-limit"
        }
      }
    },
    "415": {
      "a-body-that-is-not-json": {
        "summary": "A body that is not JSON",
        "value": {
          "success": false,
          "error": "The request body must be JSON (Content-Type: application/json).",
          "code": "unsupported_media_type",
          "request_id": "req-addMember-a-body-that-is-not-json"
        }
      }
    },
    "422": {
      "an-idempotency-key-reused-with-another-body": {
        "summary": "An Idempotency-Key reused with another body",
        "value": {
          "success": false,
          "error": "This Idempotency-Key was already used with a different request body.",
          "code": "idempotency_key_reused",
          "request_id": "req-addMember-an-idempotency-key-reused-with-another-body"
        }
      }
    },
    "429": {
      "over-the-rate-limit": {
        "summary": "Over the rate limit",
        "value": {
          "success": false,
          "error": "Rate limit of 1 requests per second exceeded; retry in 1 second.",
          "code": "rate_limited",
          "request_id": "req-addMember-over-the-rate-limit"
        }
      }
    }
  },
  "deactivateMember": {
    "200": {
      "deactivating-a-member": {
        "summary": "Deactivating a member",
        "value": {
          "success": true,
          "message": "Member was deactivated successfully.",
          "data": {
            "member": {
              "id": "5b1c2d3e-0000-4000-8000-00000000000b",
              "email": "grace@example.com",
              "full_name": "Grace Hopper",
              "preferred_name": "Grace Hopper",
              "avatar_url_original": null,
              "chat_profile_id": "U0GRACE001",
              "is_deactivated": true
            }
          }
        }
      }
    },
    "401": {
      "no-token": {
        "summary": "No token",
        "value": {
          "success": false,
          "error": "Missing or malformed Authorization header; expected \"Bearer <token>\".",
          "code": "unauthorized",
          "request_id": "req-deactivateMember-no-token"
        }
      }
    },
    "403": {
      "a-token-without-the-scope": {
        "summary": "A token without the scope",
        "value": {
          "success": false,
          "error": "This operation needs the 'members:write' scope; the token has: read, events:write.",
          "code": "insufficient_scope",
          "request_id": "req-deactivateMember-a-token-without-the-scope"
        }
      }
    },
    "404": {
      "unknown-member": {
        "summary": "Unknown member",
        "value": {
          "success": false,
          "error": "Member '5b1c2d3e-0000-4000-8000-0000000000ff' was not found.",
          "code": "not_found",
          "request_id": "req-deactivateMember-unknown-member"
        }
      }
    },
    "429": {
      "over-the-rate-limit": {
        "summary": "Over the rate limit",
        "value": {
          "success": false,
          "error": "Rate limit of 1 requests per second exceeded; retry in 1 second.",
          "code": "rate_limited",
          "request_id": "req-deactivateMember-over-the-rate-limit"
        }
      }
    }
  },
  "listFeedPosts": {
    "200": {
      "home-feed-newest-first": {
        "summary": "Home feed, newest first",
        "value": {
          "success": true,
          "data": {
            "page": 0,
            "per_page": 1,
            "count": 1,
            "total_records": 6,
            "total_pages": 6,
            "has_next": true,
            "records": [
              {
                "id": "posttie00002",
                "created_at": "2026-03-04 00:00:00.000000+00",
                "updated_at": "2026-03-04 00:00:00.000000+00",
                "content_created_at": null,
                "latest_activity_at": "2026-03-04 00:00:00.000000+00",
                "title": "Tie B",
                "slug": "tie-b",
                "feed_id": "7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0001",
                "post_detail_display_format": null,
                "author_profile_id": null,
                "read_time_minutes": 1,
                "source": null,
                "file_attachments_count": 0,
                "reactions_count": 0,
                "comments_count": 0,
                "body_plaintext": null,
                "body_prosemirror": null,
                "chat_message": null,
                "cover_image_file_id": null,
                "cover_image_url": null,
                "author": null,
                "feed": {
                  "id": "7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0001",
                  "label": "General",
                  "slug": "general"
                },
                "references": {
                  "mentioned_chat_users": [],
                  "mentioned_chat_channels": [],
                  "custom_emojis": [],
                  "urls": []
                }
              }
            ]
          }
        }
      }
    },
    "400": {
      "unknown-sort": {
        "summary": "Unknown sort",
        "value": {
          "success": false,
          "error": "Invalid parameter 'sort': must be one of: newest, oldest, most-recent-activity.",
          "code": "invalid_parameter",
          "request_id": "req-listFeedPosts-unknown-sort",
          "details": [
            {
              "field": "sort",
              "message": "must be one of: newest, oldest, most-recent-activity"
            }
          ]
        }
      }
    },
    "401": {
      "no-token": {
        "summary": "No token",
        "value": {
          "success": false,
          "error": "Missing or malformed Authorization header; expected \"Bearer <token>\".",
          "code": "unauthorized",
          "request_id": "req-listFeedPosts-no-token"
        }
      }
    },
    "403": {
      "a-token-without-the-scope": {
        "summary": "A token without the scope",
        "value": {
          "success": false,
          "error": "This operation needs the 'read' scope; the token has: members:write, events:write.",
          "code": "insufficient_scope",
          "request_id": "req-listFeedPosts-a-token-without-the-scope"
        }
      }
    },
    "404": {
      "unknown-feed": {
        "summary": "Unknown feed",
        "value": {
          "success": false,
          "error": "Feed '7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0fff' was not found.",
          "code": "not_found",
          "request_id": "req-listFeedPosts-unknown-feed"
        }
      }
    },
    "429": {
      "over-the-rate-limit": {
        "summary": "Over the rate limit",
        "value": {
          "success": false,
          "error": "Rate limit of 1 requests per second exceeded; retry in 1 second.",
          "code": "rate_limited",
          "request_id": "req-listFeedPosts-over-the-rate-limit"
        }
      }
    }
  },
  "getPost": {
    "200": {
      "a-post-from-a-chat-message": {
        "summary": "A post from a chat message",
        "value": {
          "success": true,
          "data": {
            "id": "postwelcome1",
            "created_at": "2026-03-01 10:00:00.000000+00",
            "updated_at": "2026-03-01 10:05:00.250000+00",
            "content_created_at": "2026-03-01 09:59:59.999999+00",
            "latest_activity_at": "2026-03-03 08:00:00.000000+00",
            "title": "Welcome to Hearth: read me first!",
            "slug": "welcome-to-hearth-read-me-first",
            "feed_id": "7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0001",
            "post_detail_display_format": "chat_message",
            "author_profile_id": "5b1c2d3e-0000-4000-8000-00000000000a",
            "read_time_minutes": 1,
            "source": "chat",
            "file_attachments_count": 1,
            "reactions_count": 7,
            "comments_count": 2,
            "body_plaintext": "@here Welcome! Say hi to @Grace Hopper and read the guide before posting in #Events & Meetups :partyparrot:👍\n1. Photos: https://img.example.com/team.png\n2. Recording: https://youtu.be/abc123xyz, slides at https://hearth.example.com/guide\n> Be kind, @Grace Hopper says so.\nnpx hearth serve\n@U0NOTOURS1 also joined #C0ELSEWHR1",
            "body_prosemirror": null,
            "chat_message": {
              "id": "3f2b1c0d-9e8f-4a7b-8c6d-5e4f3a2b1c0d",
              "message_ts": 1772359200.123456,
              "blocks": [
                {
                  "type": "rich_text",
                  "elements": [
                    {
                      "type": "rich_text_section",
                      "elements": [
                        {
                          "type": "broadcast",
                          "range": "here"
                        },
                        {
                          "type": "text",
                          "text": " Welcome! Say hi to "
                        },
                        {
                          "type": "user",
                          "user_id": "U0GRACE001"
                        },
                        {
                          "type": "text",
                          "text": " and read "
                        },
                        {
                          "type": "link",
                          "url": "https://hearth.example.com/guide",
                          "text": "the guide"
                        },
                        {
                          "type": "text",
                          "text": " before posting in "
                        },
                        {
                          "type": "channel",
                          "channel_id": "C0EVENTS01"
                        },
                        {
                          "type": "text",
                          "text": " ",
                          "style": {
                            "bold": true
                          }
                        },
                        {
                          "type": "emoji",
                          "name": "partyparrot",
                          "url": "https://emoji.example.com/partyparrot.gif"
                        },
                        {
                          "type": "emoji",
                          "name": "+1",
                          "unicode": "1f44d"
                        },
                        {
                          "type": "text",
                          "text": "\n"
                        }
                      ]
                    },
                    {
                      "type": "rich_text_list",
                      "style": "ordered",
                      "indent": 0,
                      "elements": [
                        {
                          "type": "rich_text_section",
                          "elements": [
                            {
                              "type": "text",
                              "text": "Photos: https://img.example.com/team.png"
                            }
                          ]
                        },
                        {
                          "type": "rich_text_section",
                          "elements": [
                            {
                              "type": "text",
                              "text": "Recording: https://youtu.be/abc123xyz, slides at "
                            },
                            {
                              "type": "link",
                              "url": "https://hearth.example.com/guide"
                            }
                          ]
                        }
                      ]
                    },
                    {
                      "type": "rich_text_quote",
                      "elements": [
                        {
                          "type": "text",
                          "text": "Be kind, "
                        },
                        {
                          "type": "user",
                          "user_id": "U0GRACE001"
                        },
                        {
                          "type": "text",
                          "text": " says so."
                        }
                      ]
                    },
                    {
                      "type": "rich_text_preformatted",
                      "elements": [
                        {
                          "type": "text",
                          "text": "npx hearth serve"
                        }
                      ]
                    },
                    {
                      "type": "rich_text_section",
                      "elements": [
                        {
                          "type": "user",
                          "user_id": "U0NOTOURS1"
                        },
                        {
                          "type": "text",
                          "text": " also joined "
                        },
                        {
                          "type": "channel",
                          "channel_id": "C0ELSEWHR1"
                        }
                      ]
                    }
                  ],
                  "block_id": "b1Xy"
                }
              ],
              "markdown": "<!here> Welcome! Say hi to <@U0GRACE001> …",
              "permalink": "https://chat.example.com/archives/C0GENERAL1/p1772359200123456",
              "parent_chat_message_id": null,
              "username": "Ada Lovelace",
              "icon": "https://chat.example.com/ada-72.png"
            },
            "cover_image_file_id": "F0COVER001",
            "cover_image_url": "https://files.example.com/cover.png",
            "author": {
              "profile_id": "5b1c2d3e-0000-4000-8000-00000000000a",
              "created_at": "2025-02-03 04:05:06.123456+00",
              "preferred_name": "Ada Lovelace",
              "preferred_image_original": "https://img.example.com/ada.png",
              "preferred_image_1024": "https://img.example.com/ada-1024.png",
              "preferred_image_512": null,
              "preferred_image_192": null,
              "preferred_image_72": "https://img.example.com/ada-72.png",
              "preferred_image_48": null,
              "preferred_image_32": null,
              "preferred_image_24": null,
              "first_name": "Ada",
              "last_name": "Lovelace",
              "email": "ada@example.com",
              "chat_user_id": "U0ADA00001",
              "chat_is_admin": true,
              "chat_is_bot": false,
              "chat_first_name": "Ada",
              "chat_last_name": "Lovelace",
              "chat_image_72": "https://chat.example.com/ada-72.png",
              "chat_image_original": "https://chat.example.com/ada.png",
              "is_deactivated": false
            },
            "feed": {
              "id": "7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0001",
              "label": "General",
              "slug": "general"
            },
            "references": {
              "mentioned_chat_users": [
                {
                  "profile_id": "5b1c2d3e-0000-4000-8000-00000000000b",
                  "preferred_name": "Grace Hopper",
                  "chat_user_id": "U0GRACE001"
                }
              ],
              "mentioned_chat_channels": [
                {
                  "chat_channel": {
                    "id": "C0EVENTS01",
                    "name": "Events & Meetups"
                  },
                  "feed": {
                    "id": "7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0002",
                    "label": "Events & Meetups",
                    "slug": "events--meetups"
                  }
                }
              ],
              "custom_emojis": [
                {
                  "alias": "partyparrot",
                  "name": "partyparrot",
                  "url": "https://emoji.example.com/partyparrot.gif"
                }
              ],
              "urls": [
                {
                  "order_seen": 0,
                  "is_embedded_media": false,
                  "is_image": false,
                  "is_video": false,
                  "url": "https://hearth.example.com/guide"
                },
                {
                  "order_seen": 1,
                  "is_embedded_media": true,
                  "is_image": true,
                  "is_video": false,
                  "url": "https://img.example.com/team.png"
                },
                {
                  "order_seen": 2,
                  "is_embedded_media": true,
                  "is_image": false,
                  "is_video": true,
                  "url": "https://youtu.be/abc123xyz"
                }
              ]
            }
          }
        }
      }
    },
    "400": {
      "id-of-the-wrong-length": {
        "summary": "Id of the wrong length",
        "value": {
          "success": false,
          "error": "Invalid parameter 'post_id': must NOT have fewer than 12 characters.",
          "code": "invalid_parameter",
          "request_id": "req-getPost-id-of-the-wrong-length",
          "details": [
            {
              "field": "post_id",
              "message": "must NOT have fewer than 12 characters"
            }
          ]
        }
      }
    },
    "401": {
      "no-token": {
        "summary": "No token",
        "value": {
          "success": false,
          "error": "Missing or malformed Authorization header; expected \"Bearer <token>\".",
          "code": "unauthorized",
          "request_id": "req-getPost-no-token"
        }
      }
    },
    "403": {
      "a-token-without-the-scope": {
        "summary": "A token without the scope",
        "value": {
          "success": false,
          "error": "This operation needs the 'read' scope; the token has: members:write, events:write.",
          "code": "insufficient_scope",
          "request_id": "req-getPost-a-token-without-the-scope"
        }
      }
    },
    "404": {
      "unknown-id": {
        "summary": "Unknown id",
        "value": {
          "success": false,
          "error": "Post 'postnothere1' was not found.",
          "code": "not_found",
          "request_id": "req-getPost-unknown-id"
        }
      }
    },
    "429": {
      "over-the-rate-limit": {
        "summary": "Over the rate limit",
        "value": {
          "success": false,
          "error": "Rate limit of 1 requests per second exceeded; retry in 1 second.",
          "code": "rate_limited",
          "request_id": "req-getPost-over-the-rate-limit"
        }
      }
    }
  },
  "listFeeds": {
    "200": {
      "listed-feeds-two-per-page": {
        "summary": "Listed feeds, two per page",
        "value": {
          "success": true,
          "data": {
            "page": 0,
            "per_page": 2,
            "count": 2,
            "total_records": 3,
            "total_pages": 2,
            "has_next": true,
            "records": [
              {
                "id": "7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0002",
                "label": "Events & Meetups",
                "slug": "events--meetups",
                "is_archived": false,
                "is_unlisted": false,
                "banner_file_id": null,
                "banner_file_url": null,
                "emoji_icon": null,
                "list_view_display_format": "snippet",
                "post_detail_display_format": "discussion",
                "show_in_navigation_menu": true,
                "is_site_posting_enabled": false,
                "chat_channel_id": "C0EVENTS01",
                "chat_channel_name": null,
                "chat_channel_num_members": 0,
                "chat_channel_purpose_chat_blocks": null,
                "chat_channel_purpose_chat_blocks_references": {
                  "mentioned_chat_users": [],
                  "mentioned_chat_channels": [],
                  "custom_emojis": [],
                  "urls": []
                },
                "chat_channel_topic_chat_blocks": null,
                "chat_channel_topic_chat_blocks_references": {
                  "mentioned_chat_users": [],
                  "mentioned_chat_channels": [],
                  "custom_emojis": [],
                  "urls": []
                }
              },
              {
                "id": "7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0001",
                "label": "General",
                "slug": "general",
                "is_archived": false,
                "is_unlisted": false,
                "banner_file_id": null,
                "banner_file_url": null,
                "emoji_icon": null,
                "list_view_display_format": "snippet",
                "post_detail_display_format": "discussion",
                "show_in_navigation_menu": true,
                "is_site_posting_enabled": false,
                "chat_channel_id": "C0GENERAL1",
                "chat_channel_name": null,
                "chat_channel_num_members": 0,
                "chat_channel_purpose_chat_blocks": null,
                "chat_channel_purpose_chat_blocks_references": {
                  "mentioned_chat_users": [],
                  "mentioned_chat_channels": [],
                  "custom_emojis": [],
                  "urls": []
                },
                "chat_channel_topic_chat_blocks": null,
                "chat_channel_topic_chat_blocks_references": {
                  "mentioned_chat_users": [],
                  "mentioned_chat_channels": [],
                  "custom_emojis": [],
                  "urls": []
                }
              }
            ]
          }
        }
      }
    },
    "400": {
      "a-filter-that-is-not-true-or-false": {
        "summary": "A filter that is not true or false",
        "value": {
          "success": false,
          "error": "Invalid parameter 'is_archived': must be boolean.",
          "code": "invalid_parameter",
          "request_id": "req-listFeeds-a-filter-that-is-not-true-or-false",
          "details": [
            {
              "field": "is_archived",
              "message": "must be boolean"
            }
          ]
        }
      }
    },
    "401": {
      "no-token": {
        "summary": "No token",
        "value": {
          "success": false,
          "error": "Missing or malformed Authorization header; expected \"Bearer <token>\".",
          "code": "unauthorized",
          "request_id": "req-listFeeds-no-token"
        }
      }
    },
    "403": {
      "a-token-without-the-scope": {
        "summary": "A token without the scope",
        "value": {
          "success": false,
          "error": "This operation needs the 'read' scope; the token has: members:write, events:write.",
          "code": "insufficient_scope",
          "request_id": "req-listFeeds-a-token-without-the-scope"
        }
      }
    },
    "429": {
      "over-the-rate-limit": {
        "summary": "Over the rate limit",
        "value": {
          "success": false,
          "error": "Rate limit of 1 requests per second exceeded; retry in 1 second.",
          "code": "rate_limited",
          "request_id": "req-listFeeds-over-the-rate-limit"
        }
      }
    }
  },
  "getFeed": {
    "200": {
      "a-feed-with-its-chat-channel": {
        "summary": "A feed with its chat channel",
        "value": {
          "success": true,
          "data": {
            "id": "7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0005",
            "label": "announcements",
            "slug": "news",
            "is_archived": false,
            "is_unlisted": false,
            "banner_file_id": "F0BANNER01",
            "banner_file_url": "https://files.example.com/banner.png",
            "emoji_icon": ":mega:",
            "list_view_display_format": "card",
            "post_detail_display_format": "discussion",
            "show_in_navigation_menu": false,
            "is_site_posting_enabled": true,
            "chat_channel_id": "C0ANNOUNCE",
            "chat_channel_name": "announcements",
            "chat_channel_num_members": 42,
            "chat_channel_purpose_chat_blocks": [
              {
                "type": "rich_text",
                "elements": [
                  {
                    "type": "rich_text_section",
                    "elements": [
                      {
                        "type": "text",
                        "text": "News from "
                      },
                      {
                        "type": "user",
                        "user_id": "U0ADA00001"
                      },
                      {
                        "type": "text",
                        "text": ", discussed in "
                      },
                      {
                        "type": "channel",
                        "channel_id": "C0GENERAL1"
                      }
                    ]
                  }
                ],
                "block_id": "fp1"
              }
            ],
            "chat_channel_purpose_chat_blocks_references": {
              "mentioned_chat_users": [
                {
                  "profile_id": "5b1c2d3e-0000-4000-8000-00000000000a",
                  "preferred_name": "Ada Lovelace",
                  "chat_user_id": "U0ADA00001"
                }
              ],
              "mentioned_chat_channels": [
                {
                  "chat_channel": {
                    "id": "C0GENERAL1",
                    "name": "General"
                  },
                  "feed": {
                    "id": "7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0001",
                    "label": "General",
                    "slug": "general"
                  }
                }
              ],
              "custom_emojis": [],
              "urls": []
            },
            "chat_channel_topic_chat_blocks": [
              {
                "type": "rich_text",
                "elements": [
                  {
                    "type": "rich_text_section",
                    "elements": [
                      {
                        "type": "text",
                        "text": "Read-only; see https://hearth.example.com/rules"
                      }
                    ]
                  }
                ],
                "block_id": "fp1"
              }
            ],
            "chat_channel_topic_chat_blocks_references": {
              "mentioned_chat_users": [],
              "mentioned_chat_channels": [],
              "custom_emojis": [],
              "urls": [
                {
                  "order_seen": 0,
                  "is_embedded_media": false,
                  "is_image": false,
                  "is_video": false,
                  "url": "https://hearth.example.com/rules"
                }
              ]
            }
          }
        }
      }
    },
    "400": {
      "not-a-uuid": {
        "summary": "Not a UUID",
        "value": {
          "success": false,
          "error": "Invalid parameter 'feed_id': must match pattern \"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$\".",
          "code": "invalid_parameter",
          "request_id": "req-getFeed-not-a-uuid",
          "details": [
            {
              "field": "feed_id",
              "message": "must match pattern \"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$\""
            }
          ]
        }
      }
    },
    "401": {
      "no-token": {
        "summary": "No token",
        "value": {
          "success": false,
          "error": "Missing or malformed Authorization header; expected \"Bearer <token>\".",
          "code": "unauthorized",
          "request_id": "req-getFeed-no-token"
        }
      }
    },
    "403": {
      "a-token-without-the-scope": {
        "summary": "A token without the scope",
        "value": {
          "success": false,
          "error": "This operation needs the 'read' scope; the token has: members:write, events:write.",
          "code": "insufficient_scope",
          "request_id": "req-getFeed-a-token-without-the-scope"
        }
      }
    },
    "404": {
      "unknown-feed": {
        "summary": "Unknown feed",
        "value": {
          "success": false,
          "error": "Feed '7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0fff' was not found.",
          "code": "not_found",
          "request_id": "req-getFeed-unknown-feed"
        }
      }
    },
    "429": {
      "over-the-rate-limit": {
        "summary": "Over the rate limit",
        "value": {
          "success": false,
          "error": "Rate limit of 1 requests per second exceeded; retry in 1 second.",
          "code": "rate_limited",
          "request_id": "req-getFeed-over-the-rate-limit"
        }
      }
    }
  },
  "getApiKey": {
    "200": {
      "the-calling-token": {
        "summary": "The calling token",
        "value": {
          "success": true,
          "data": {
            "id": "0b5d3c8e-2f41-4a6b-9c7d-8e9f0a1b2c3d",
            "name": null,
            "field_names": "spec",
            "scopes": [
              "read",
              "members:write",
              "events:write"
            ],
            "community": {
              "id": "9a7c5e3f-1b2d-4c6e-8f0a-1b2c3d4e5f60",
              "slug": "example",
              "name": "example"
            },
            "created_at": "2026-03-01 09:00:00.000000+00",
            "expires_at": null,
            "last_used_at": "2026-03-10 12:00:00.000000+00"
          }
        }
      }
    },
    "401": {
      "no-token": {
        "summary": "No token",
        "value": {
          "success": false,
          "error": "Missing or malformed Authorization header; expected \"Bearer <token>\".",
          "code": "unauthorized",
          "request_id": "req-getApiKey-no-token"
        }
      }
    },
    "403": {
      "a-token-without-the-scope": {
        "summary": "A token without the scope",
        "value": {
          "success": false,
          "error": "This operation needs the 'read' scope; the token has: members:write, events:write.",
          "code": "insufficient_scope",
          "request_id": "req-getApiKey-a-token-without-the-scope"
        }
      }
    },
    "429": {
      "over-the-rate-limit": {
        "summary": "Over the rate limit",
        "value": {
          "success": false,
          "error": "Rate limit of 1 requests per second exceeded; retry in 1 second.",
          "code": "rate_limited",
          "request_id": "req-getApiKey-over-the-rate-limit"
        }
      }
    }
  }
};
