# sources of src/edit (listed explicitly)
