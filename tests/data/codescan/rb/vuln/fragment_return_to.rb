    if @user.save
      redirect_to params[:return_to] || root_path
