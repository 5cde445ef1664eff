class GreetingsController < ApplicationController
  def show
    render html: "<h1>Hello, #{params[:name]}!</h1>".html_safe
  end
end
