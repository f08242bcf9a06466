import {
  categoryDeletedSchema,
  categorySchema,
  createCategoryBodySchema,
  dataEnvelope,
  errorResponses,
  ifMatchHeadersSchema,
  ifNoneMatchHeadersSchema,
  listCategoriesQuerySchema,
  listEnvelope,
  updateCategoryBodySchema,
} from '@app/contracts';
import { answerRecord, callerOf, idParamsSchema, ifMatchOf, type ServiceApp } from '@app/service-kit';
import type { UseCaseContext } from '../use-cases/context.js';
import { createCategory, deleteCategory, getCategory, listCategories, updateCategory } from '../use-cases/categories.use-case.js';

const tags = ['categories'];

/** /api/v1/categories: the organization's category tree, at most 5 levels deep. */
export function registerCategoryRoutes(app: ServiceApp, ctx: UseCaseContext): void {
  app.get(
    '/api/v1/categories',
    {
      schema: {
        operationId: 'listCategories',
        summary: 'List categories, flat and oldest first (`parent_id` tells the tree)',
        tags,
        querystring: listCategoriesQuerySchema,
        response: { 200: listEnvelope(categorySchema) },
      },
    },
    async (request) => {
      const { items, meta } = await listCategories(ctx, callerOf(request), request.query);
      return { data: items, meta };
    },
  );

  app.post(
    '/api/v1/categories',
    {
      schema: {
        operationId: 'createCategory',
        summary: 'Create a category (the slug is made from the name unless given)',
        tags,
        body: createCategoryBodySchema,
        response: { 201: dataEnvelope(categorySchema), ...errorResponses('SLUG_TAKEN') },
      },
    },
    async (request, reply) => {
      const data = await createCategory(ctx, callerOf(request), request.body);
      return reply.code(201).send({ data });
    },
  );

  app.get(
    '/api/v1/categories/:id',
    {
      schema: {
        operationId: 'getCategory',
        summary: 'Get a category',
        tags,
        params: idParamsSchema,
        headers: ifNoneMatchHeadersSchema,
        response: { 200: dataEnvelope(categorySchema), ...errorResponses('NOT_FOUND') },
      },
    },
    async (request, reply) => answerRecord(request, reply, await getCategory(ctx, callerOf(request), request.params.id)),
  );

  app.patch(
    '/api/v1/categories/:id',
    {
      schema: {
        operationId: 'updateCategory',
        summary: 'Update a category; `parent_id` moves it with its subtree (null: to the root)',
        tags,
        params: idParamsSchema,
        headers: ifMatchHeadersSchema,
        body: updateCategoryBodySchema,
        response: { 200: dataEnvelope(categorySchema), ...errorResponses('NOT_FOUND', 'SLUG_TAKEN', 'CATEGORY_CYCLE') },
      },
    },
    async (request, reply) => {
      const change = { id: request.params.id, changes: request.body, ifMatch: ifMatchOf(request) };
      return answerRecord(request, reply, await updateCategory(ctx, callerOf(request), change));
    },
  );

  app.delete(
    '/api/v1/categories/:id',
    {
      schema: {
        operationId: 'deleteCategory',
        summary: 'Delete a category without children (its products lose it)',
        tags,
        params: idParamsSchema,
        headers: ifMatchHeadersSchema,
        response: { 200: dataEnvelope(categoryDeletedSchema), ...errorResponses('NOT_FOUND', 'CATEGORY_NOT_EMPTY') },
      },
    },
    async (request) => ({ data: await deleteCategory(ctx, callerOf(request), { id: request.params.id, ifMatch: ifMatchOf(request) }) }),
  );
}
