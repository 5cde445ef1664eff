# API controllers authenticate with a bearer token; a forged request gets an empty session.
class Api::BaseController < ActionController::Base
  protect_from_forgery with: :null_session
  before_action :authenticate_token!
end
