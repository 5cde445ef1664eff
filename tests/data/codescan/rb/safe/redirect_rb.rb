  def after_login
    redirect_to params[:return_to].presence || root_path, allow_other_host: false
  end
