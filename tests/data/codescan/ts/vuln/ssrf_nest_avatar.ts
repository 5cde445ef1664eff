@Controller('profile')
export class ProfileController {
  constructor(private readonly http: HttpService, private readonly storage: StorageService) {}

  @Post('avatar/import')
  async importAvatar(@Body() dto: ImportAvatarDto, @Req() req: AuthedRequest) {
    const source = dto.imageLocation;
    const { data } = await firstValueFrom(this.http.get<ArrayBuffer>(source, { responseType: 'arraybuffer' }));
    return this.storage.saveAvatar(req.user.id, Buffer.from(data));
  }
}
