  def greeting
    render inline: "<h1>Hello #{params[:name]}</h1>"
  end
