@Get('search')
async search(@Query('q') q: string) {
  return this.dataSource.query('SELECT * FROM article WHERE title ILIKE $1', [`%${q}%`]);
}
export const byStatus = (status: string) => prisma.$queryRaw`SELECT * FROM "Order" WHERE status = ${status}`;
