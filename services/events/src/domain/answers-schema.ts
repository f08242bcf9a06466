import { z } from 'zod';
import { MAX_TEXT_ANSWER, proseString, type EventQuestion } from '@app/contracts';
import { invalidInput } from '@app/service-kit';

/**
 * The schema of a registration's `answers` for the event's current questions: one field per question, required ones
 * required; an id that is no question of the event is refused. Built per registration from the event's questions as
 * they are then, so answers given earlier are never checked again (they stay stored as given).
 */
function answersSchema(questions: readonly EventQuestion[]) {
  const fields = Object.fromEntries(questions.map((question) => [question.id, answerSchema(question)]));
  return z.strictObject(fields, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? 'is not a question of this event' : 'must be an object'),
  });
}

function answerSchema(question: EventQuestion): z.ZodType {
  const answer = valueSchema(question);
  return question.required ? answer : answer.optional();
}

function valueSchema(question: EventQuestion): z.ZodType {
  switch (question.type) {
    case 'text': {
      const text = proseString(MAX_TEXT_ANSWER);
      // A required text question wants something in it: blank is no answer.
      return question.required ? text.refine((value) => value.trim() !== '', { message: 'is required' }) : text;
    }
    case 'boolean':
      return z.boolean({ message: 'must be true or false' });
    case 'choice': {
      const options = question.options ?? [];
      return z.string({ message: 'must be a string' }).refine((value) => options.includes(value), {
        message: `must be one of ${options.join(', ')}`,
      });
    }
  }
}

/**
 * `answers` checked against `questions`: the answers as given, or a 400 VALIDATION_ERROR about the first bad one, with
 * the kit's shape (`answers.<id> is required`, details path `answers.<id>`).
 */
export function checkedAnswers(questions: readonly EventQuestion[], answers: Record<string, unknown>): Record<string, unknown> {
  const result = answersSchema(questions).safeParse(answers);
  if (result.success) return answers;
  const [issue] = result.error.issues;
  if (!issue) throw invalidInput('answers', 'answers is invalid');
  // An unknown id is an issue of the object, naming the key; any other is the issue of that answer's field.
  const id = issue.code === 'unrecognized_keys' ? issue.keys[0] : issue.path[0];
  const path = id === undefined ? 'answers' : `answers.${String(id)}`;
  const missing = typeof id === 'string' && issue.code !== 'unrecognized_keys' && !Object.hasOwn(answers, id);
  const message = missing ? 'is required' : issue.message;
  throw invalidInput(path, `${path} ${message}`);
}
