  def ping
    output = `ping -c 1 #{params[:host]}`
    render plain: output
  end
