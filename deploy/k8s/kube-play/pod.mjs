// Turns the rendered example overlay into one pod for `podman kube play`: every service container exactly as its
// Deployment declares it (command, probes, resources, security context, read-only root with /tmp mounted), plus
// Postgres and NATS containers, all sharing the pod's network, so services reach each other on localhost where a
// cluster would use Service names. Only what a single pod cannot take over from a cluster is changed: images (the
// locally built ones), ConfigMap and Secret references (their values, with local endpoints), the metrics port (one per
// pod in a cluster, so one per container here) and the volumes.
import { join } from 'node:path';
import { findRenderer } from '../lib/render.mjs';

const OVERLAY = join(import.meta.dirname, '..', 'overlays', 'example');
const URL_VARIABLES = {
  bookings: 'BOOKINGS_URL',
  scheduling: 'SCHEDULING_URL',
  catalog: 'CATALOG_URL',
  events: 'EVENTS_URL',
  'calendar-sync': 'CALENDAR_SYNC_URL',
  webhooks: 'WEBHOOKS_URL',
};

/**
 * The pod manifest. `images` names the service images (`${prefix}/<service>:${tag}`) and Postgres and NATS;
 * `gatewayHostPort` is where the gateway is published; `secrets` the values the overlay's example Secrets stand for.
 */
export function kubePlayPod({ name, images, gatewayHostPort, secrets }) {
  const objects = findRenderer().render(OVERLAY);
  const config = objects.find((object) => object.kind === 'ConfigMap')?.data ?? {};
  const deployments = objects.filter((object) => object.kind === 'Deployment');
  // The overlay's example caller assertion keys, from each service's own Secret (the gateway's holds all of them).
  const secretValue = (service, key) => {
    const secret = objects.find((object) => object.kind === 'Secret' && object.metadata.name.startsWith(`${service}-secrets`));
    return Buffer.from(secret?.data?.[key] ?? '', 'base64').toString();
  };
  const assertionKeys = (service) =>
    service === 'gateway'
      ? { CALLER_ASSERTION_SIGNING_KEYS: secretValue('gateway', 'CALLER_ASSERTION_SIGNING_KEYS') }
      : { CALLER_ASSERTION_SECRETS: secretValue(service, 'CALLER_ASSERTION_SECRETS') };
  const database = `postgres://postgres:${secrets.postgresPassword}@127.0.0.1:5432/scheduling_shop`;
  const upstreams = Object.fromEntries(
    deployments
      .map((deployment) => deployment.spec.template.spec.containers[0])
      .filter((container) => URL_VARIABLES[container.name])
      .map((container) => [URL_VARIABLES[container.name], `http://127.0.0.1:${container.ports[0].containerPort}`]),
  );
  const volumes = [];
  const containers = deployments.map((deployment, index) => {
    const pod = deployment.spec.template.spec;
    const [container] = pod.containers;
    const service = container.name;
    const rename = (volume) => `${service}-${volume}`;
    for (const volume of pod.volumes ?? []) {
      // A PersistentVolumeClaim needs a cluster; an emptyDir stands in for it (the data lives as long as the pod).
      volumes.push({ name: rename(volume.name), emptyDir: {} });
    }
    // The Deployment's own values, then what differs in one pod: Service names become localhost, Secrets values.
    const values = {
      ...config,
      ...Object.fromEntries((container.env ?? []).map((variable) => [variable.name, variable.value])),
      PUBLIC_BASE_URL: `http://127.0.0.1:${gatewayHostPort}`,
      // Each pod of a cluster has its own 9464; in one pod the services take turns above it.
      ...(config.METRICS_PORT ? { METRICS_PORT: Number(config.METRICS_PORT) + index } : {}),
      NATS_URL: 'nats://127.0.0.1:4222',
      DATABASE_URL: database,
      ...assertionKeys(service),
      ...(service === 'gateway' ? { ...upstreams, ADMIN_TOKEN: secrets.adminToken } : {}),
      ...(service === 'calendar-sync'
        ? { CALENDAR_ENCRYPTION_KEYS: secrets.calendarKeys, OAUTH_STATE_SECRET: secrets.oauthStateSecret }
        : {}),
    };
    const env = Object.entries(values).map(([key, value]) => ({ name: key, value: String(value) }));
    return {
      ...container,
      image: images[service],
      envFrom: undefined,
      env,
      // The pod-level user of the Deployment, on the container: Postgres and NATS share this pod with their own users.
      securityContext: { ...pod.securityContext, ...container.securityContext },
      volumeMounts: (container.volumeMounts ?? []).map((mount) => ({ ...mount, name: rename(mount.name) })),
      ports:
        service === 'gateway'
          ? container.ports.map((port) => ({ ...port, hostPort: gatewayHostPort, hostIP: '127.0.0.1' }))
          : container.ports,
    };
  });
  containers.push(
    {
      name: 'postgres',
      image: images.postgres,
      env: [
        { name: 'POSTGRES_PASSWORD', value: secrets.postgresPassword },
        { name: 'POSTGRES_DB', value: 'scheduling_shop' },
      ],
    },
    { name: 'nats', image: images.nats, args: ['-js'] },
  );
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers, volumes, restartPolicy: 'Always' } };
}
