import multipart from '@fastify/multipart';
import type { FastifyBaseLogger } from 'fastify';
import { buildService, type ReadinessCheck, type ServiceApp } from '@app/service-kit';
import { uploadLimits } from './routes/media-upload.js';
import { registerMediaContentRoute } from './routes/media-content.route.js';
import { registerMediaRoutes } from './routes/media.route.js';
import { registerProductImageRoutes } from './routes/product-images.route.js';
import { registerProductRoutes } from './routes/products.route.js';
import type { UseCaseContext } from './use-cases/context.js';

export interface AppDeps {
  log: FastifyBaseLogger;
  readiness: ReadinessCheck[];
  ctx: UseCaseContext;
}

/** Products, media files and product images. */
export async function buildApp(deps: AppDeps): Promise<ServiceApp> {
  const app = await buildService({
    name: 'catalog',
    description: 'Products, media files and product images.',
    log: deps.log,
    readiness: deps.readiness,
  });
  // Uploads are streamed part by part (request.parts()), never buffered or written to temp files.
  await app.register(multipart, { limits: uploadLimits(deps.ctx.maxUploadBytes) });
  registerMediaRoutes(app, deps.ctx);
  registerMediaContentRoute(app, deps.ctx);
  registerProductRoutes(app, deps.ctx);
  registerProductImageRoutes(app, deps.ctx);
  return app;
}
