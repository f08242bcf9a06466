import multipart from '@fastify/multipart';
import { buildServiceApp, type AppDeps, type ServiceApp } from '@app/service-kit';
import { uploadLimits } from './routes/media-upload.js';
import { registerCategoryRoutes } from './routes/categories.route.js';
import { registerMediaContentRoute } from './routes/media-content.route.js';
import { registerMediaRoutes } from './routes/media.route.js';
import { registerProductImageRoutes } from './routes/product-images.route.js';
import { registerProductRoutes } from './routes/products.route.js';
import { registerReservationRoutes } from './routes/reservations.route.js';
import { registerVariantRoutes } from './routes/variants.route.js';
import type { UseCaseContext } from './use-cases/context.js';

/** Products, their variants, media files, product images, categories and inventory reservations. */
export function buildApp(deps: AppDeps<UseCaseContext>): Promise<ServiceApp> {
  return buildServiceApp(
    { name: 'catalog', description: 'Products, their variants, media files, product images, categories and inventory reservations.' },
    deps,
    [
      // Uploads are streamed part by part (request.parts()), never buffered or written to temp files.
      (app, ctx) => app.register(multipart, { limits: uploadLimits(ctx.maxUploadBytes) }),
      registerMediaRoutes,
      registerMediaContentRoute,
      registerProductRoutes,
      registerProductImageRoutes,
      registerVariantRoutes,
      registerReservationRoutes,
      registerCategoryRoutes,
    ],
  );
}
