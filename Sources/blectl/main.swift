print("blectl")
