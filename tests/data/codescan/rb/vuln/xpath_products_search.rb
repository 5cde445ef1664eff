class ProductsController < ApplicationController
  CATALOG = Nokogiri::XML(File.read(Rails.root.join('config', 'catalog.xml')))

  def search
    @products = CATALOG.xpath("//product[contains(name, '#{params[:q]}')]")
    render :search
  end
end
