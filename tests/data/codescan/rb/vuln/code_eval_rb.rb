  def calculate
    result = eval(params[:expression])
    render json: { result: result }
  end
