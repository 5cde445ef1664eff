  def after_login
    redirect_to params[:return_to]
  end
