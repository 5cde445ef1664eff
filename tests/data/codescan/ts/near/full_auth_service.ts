import { Injectable, UnauthorizedException } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import * as argon2 from 'argon2';
import { randomBytes, timingSafeEqual, createHash } from 'crypto';
import { PrismaService } from './prisma.service';

const PASSWORD_MIN_LENGTH = 12;
const RESET_TOKEN_BYTES = 32;

@Injectable()
export class AuthService {
  constructor(private readonly prisma: PrismaService, private readonly jwt: JwtService) {}

  async register(email: string, password: string): Promise<void> {
    if (password.length < PASSWORD_MIN_LENGTH) throw new Error('password too short');
    const passwordHash = await argon2.hash(password);
    await this.prisma.user.create({ data: { email, passwordHash } });
  }

  async login(email: string, password: string): Promise<{ accessToken: string }> {
    const user = await this.prisma.user.findUnique({ where: { email } });
    if (!user || !(await argon2.verify(user.passwordHash, password))) {
      throw new UnauthorizedException('invalid email or password');
    }
    return { accessToken: await this.jwt.signAsync({ sub: user.id }) };
  }

  async startReset(email: string): Promise<string> {
    const resetToken = randomBytes(RESET_TOKEN_BYTES).toString('base64url');
    const tokenHash = createHash('sha256').update(resetToken).digest('hex');
    await this.prisma.user.update({ where: { email }, data: { resetTokenHash: tokenHash } });
    return resetToken;
  }

  async confirmReset(email: string, token: string, password: string): Promise<void> {
    const user = await this.prisma.user.findUnique({ where: { email } });
    const given = createHash('sha256').update(token).digest();
    const stored = Buffer.from(user?.resetTokenHash ?? '00'.repeat(32), 'hex');
    if (!user || !timingSafeEqual(given, stored)) throw new UnauthorizedException();
    await this.prisma.user.update({
      where: { id: user.id },
      data: { passwordHash: await argon2.hash(password), resetTokenHash: null },
    });
  }
}
