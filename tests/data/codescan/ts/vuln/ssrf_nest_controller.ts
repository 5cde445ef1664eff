@Controller('preview')
export class PreviewController {
  constructor(private readonly http: HttpService) {}

  @Get()
  async preview(@Query('link') link: string) {
    const res = await firstValueFrom(this.http.get(link));
    return { status: res.status, length: String(res.data).length };
  }
}
