export async function byStatus(status: string) {
  return prisma.$queryRawUnsafe(`SELECT * FROM "Order" WHERE status = '${status}'`);
}
