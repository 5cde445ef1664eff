  @Post('convert')
  async convert(@Body() dto: ConvertDto) {
    const { stdout } = await execAsync(`libreoffice --headless --convert-to pdf ${dto.fileName}`);
    return { output: stdout };
  }
