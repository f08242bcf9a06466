/**
 * The error option of every strict body and query of the API: an unknown field is a 400 naming it, so a
 * typo never passes silently, and a value that is not an object says so — in every service alike.
 * Only the object's own issues reach it; its fields keep their messages.
 */
export const strictFields = {
  error: (issue: { code?: string; keys?: string[] }): string | undefined => {
    if (issue.code === 'unrecognized_keys') return `has unknown field ${issue.keys?.join(', ') ?? ''}`;
    if (issue.code === 'invalid_type') return 'must be an object';
    return undefined;
  },
};
