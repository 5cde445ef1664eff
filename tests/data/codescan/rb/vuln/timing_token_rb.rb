  def authenticate_api!
    token = request.headers['X-Api-Token']
    head :unauthorized unless token == Rails.application.credentials.api_token
  end
