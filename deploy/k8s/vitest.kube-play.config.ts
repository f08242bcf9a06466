import { workspaceProject } from '../../vitest.shared.ts';

// `npm run test:containers kube`: the manifests run by `podman kube play` with the locally built images (podman only).
export default workspaceProject('kube-play', { integration: false, include: ['kube-play/**/*.test.ts'], testTimeout: 120_000 });
