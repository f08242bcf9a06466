/** The Postgres role a service runs as: `bookings_service`, `calendar_sync_service`. */
export function serviceRoleName(service: string): string {
  return `${service.replaceAll('-', '_')}_service`;
}

/**
 * The database variables of a service on a server where `adminUrl` is a superuser's (`npm start`, the test harness,
 * `startSystem`): the service connects as its own role, and its migration step connects as the superuser, who creates
 * that role with this password before applying the migrations as the migration role. The default password is a
 * development one: local servers trust their users, and test servers are thrown away.
 */
export function serviceDatabaseEnv(
  adminUrl: string,
  service: string,
  password = `dev-${serviceRoleName(service)}`,
): { DATABASE_URL: string; DATABASE_MIGRATION_URL: string } {
  const own = new URL(adminUrl);
  own.username = serviceRoleName(service);
  own.password = password;
  return { DATABASE_URL: own.toString(), DATABASE_MIGRATION_URL: adminUrl };
}
