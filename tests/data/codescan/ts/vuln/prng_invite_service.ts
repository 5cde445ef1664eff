@Injectable()
export class InvitesService {
  constructor(@InjectRepository(Invite) private readonly invites: Repository<Invite>) {}

  async create(teamId: string, email: string): Promise<Invite> {
    const inviteToken = [...Array(24)].map(() => Math.floor(Math.random() * 16).toString(16)).join('');
    return this.invites.save({ teamId, email, token: inviteToken });
  }
}
