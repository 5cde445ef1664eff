  async findByName(name: string): Promise<User[]> {
    return this.repo.query("SELECT * FROM users WHERE name = '" + name + "'");
  }

  async remove(id: number) {
