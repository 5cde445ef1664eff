  def restore
    state = Marshal.load(Base64.decode64(cookies[:state]))
    session.merge!(state)
  end
