  def greeting
    @name = params[:name]
    render :greeting
  end
