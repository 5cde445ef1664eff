  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    return req.headers['x-api-key'] === this.config.get<string>('API_KEY');
  }
