  def lookup
    filter = Net::LDAP::Filter.construct("(uid=#{params[:uid]})")
    entries = ldap.search(base: 'ou=people,dc=example,dc=com', filter: filter)
    render json: entries.map(&:dn)
  end
