import { workspaceProject } from '../../vitest.shared.ts';

export default workspaceProject('service-testing');
