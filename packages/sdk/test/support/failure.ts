import { isApiError, type ApiError } from '../../src/index.js';

/** The ApiError a call failed with; anything else (success included) fails the test. */
export async function failure(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (error) {
    if (isApiError(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail with an ApiError, but it succeeded');
}
