@Get()
async list(@Query('filter') filter?: string) {
  const criteria = filter ? JSON.parse(filter) : {};
  return this.orderModel.find(criteria).limit(50).lean();
}
