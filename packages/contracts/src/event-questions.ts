import { z } from 'zod';
import { nameString } from './safe-text.js';
import { strictFields } from './strict.js';

/*
 * The questions an event asks its registrations (API.md, "Ticket types, waitlists, check-in and questions"). The
 * event stores them as validated here; each registration's `answers` are checked against the event's questions of
 * that moment by a schema built from them (the events service's domain/answers-schema.ts).
 */

export const QUESTION_TYPES = ['text', 'choice', 'boolean'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** An event holds at most this many questions. */
export const MAX_QUESTIONS = 20;
/** A choice question offers 1 to this many options. */
export const MAX_QUESTION_OPTIONS = 50;
/** The longest text answer. */
export const MAX_TEXT_ANSWER = 2000;
/** The longest question label and choice option. */
const LABEL_MAX = 500;
const OPTION_MAX = 200;

const questionIdSchema = z
  .string({ message: 'must be a string' })
  .regex(/^[a-z0-9_]{1,40}$/, { message: 'must be 1 to 40 characters of a-z, 0-9 and _' });

const questionSchema = z
  .strictObject(
    {
      id: questionIdSchema,
      label: nameString(LABEL_MAX).trim().min(1, { message: 'is required' }),
      type: z.enum(QUESTION_TYPES, { message: `must be one of ${QUESTION_TYPES.join(', ')}` }),
      required: z.boolean({ message: 'must be true or false' }).default(false),
      options: z
        .array(nameString(OPTION_MAX).trim().min(1, { message: 'must not be empty' }), { message: 'must be a list of strings' })
        .min(1, { message: 'must have at least 1 option' })
        .max(MAX_QUESTION_OPTIONS, { message: `must have at most ${MAX_QUESTION_OPTIONS} options` })
        .optional(),
    },
    strictFields,
  )
  .superRefine((question, ctx) => {
    // options belong to choice questions only: required there, refused elsewhere (a silent drop would hide a typo'd type).
    if (question.type === 'choice' && question.options === undefined)
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'is required for a choice question' });
    if (question.type !== 'choice' && question.options !== undefined)
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'is only allowed on a choice question' });
    if (question.options && new Set(question.options).size !== question.options.length)
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'must not repeat an option' });
  });

/** `questions` of an event's create and patch bodies: at most 20, ids unique within the event. */
export const eventQuestionsSchema = z
  .array(questionSchema, { message: 'must be a list of questions' })
  .max(MAX_QUESTIONS, { message: `must have at most ${MAX_QUESTIONS} questions` })
  .superRefine((questions, ctx) => {
    const seen = new Set<string>();
    questions.forEach((question, index) => {
      if (seen.has(question.id)) ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `repeats the question id ${question.id}` });
      seen.add(question.id);
    });
  })
  .meta({
    example: [
      { id: 'diet', label: 'Dietary requirements', type: 'choice', required: true, options: ['none', 'vegetarian', 'vegan'] },
      { id: 'company', label: 'Company', type: 'text' },
    ],
  });
export type EventQuestions = z.infer<typeof eventQuestionsSchema>;
export type EventQuestion = EventQuestions[number];

/** A question as an event's record shows it. */
export const eventQuestionRecordSchema = z
  .object({
    id: z.string(),
    label: z.string(),
    type: z.enum(QUESTION_TYPES),
    required: z.boolean(),
    options: z.array(z.string()).optional().describe('choice questions only'),
  })
  .meta({ id: 'EventQuestion' });

/**
 * `answers` of a registration's create body: question id → value (text: a string, choice: one of its options,
 * boolean: true or false). Only its shape is checked here; the events service checks it against the event's questions,
 * naming the question id in the 400.
 */
export const registrationAnswersSchema = z
  .record(
    z.string({ message: 'must be a question id' }).max(100, { message: 'must hold question ids of at most 40 characters' }),
    z.unknown(),
    { message: 'must be an object of question ids to answers' },
  )
  .meta({ example: { diet: 'vegetarian', company: 'Acme' } });

/** `answers` as a registration's record shows them: as they were given, whatever the questions are now. */
export const registrationAnswersRecordSchema = z.record(z.string(), z.unknown());
