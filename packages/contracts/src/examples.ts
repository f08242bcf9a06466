/*
 * Ids in the OpenAPI examples. An example that refers to another record cannot know its id: these stand in for
 * it, and "Try it out" users replace them with the id their previous call returned.
 */
export const EXAMPLE_SCHEDULE_ID = '6f1d3c2a-8e4b-4a7f-9c5d-2b8e7a1f3c90';
export const EXAMPLE_MEDIA_FILE_ID = '0b7e4c1d-3a92-4f5e-8d6c-9e2f1a4b7c35';
