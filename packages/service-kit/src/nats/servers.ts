/** The servers of a NATS_URL: one URL, or a cluster's URLs comma-separated (spaces around them allowed). */
export function natsServers(url: string): string[] {
  return url
    .split(',')
    .map((server) => server.trim())
    .filter((server) => server !== '');
}
