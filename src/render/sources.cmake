# sources of src/render (game only; listed explicitly)
