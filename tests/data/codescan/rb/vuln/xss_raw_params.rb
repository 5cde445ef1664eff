  def preview
    @signature = raw(params[:signature])
    render :preview
  end
