# sources of src/mesh (listed explicitly)
