  def index
    @users = User.where("name = '#{params[:name]}'")
  end
