@Get('search')
async search(@Query('q') q: string) {
  return this.dataSource.query(`SELECT * FROM article WHERE title ILIKE '%${q}%'`);
}
